import Foundation
import MatterMessaging
import MatterPlatform

/// A node of the hub's fabric as stored: what it is, whether its commissioning finished, and how to reach it.
public struct NodeRecord: Sendable, Hashable, Codable {
    /// Where the node is in its commissioning. Only `commissioned` nodes are part of the home.
    public enum CommissioningState: String, Sendable, Hashable, CaseIterable, Codable {
        /// Inserted before AddNOC; stays so until CommissioningComplete succeeds. Found again after a crash.
        case commissioning
        case commissioned
        /// Given up: the device may hold our NOC but never completed; it can be commissioned again.
        case failed
    }

    /// The outcome of device attestation, in words, and whether the device's certificates chained to a trusted PAA.
    public struct Attestation: Sendable, Hashable, Codable {
        public var verdict: String
        public var trusted: Bool

        public init(verdict: String, trusted: Bool) {
            self.verdict = verdict
            self.trusted = trusted
        }
    }

    public var nodeID: UInt64
    public var vendorID: UInt16
    public var productID: UInt16
    public var vendorName: String?
    public var productName: String?
    public var serialNumber: String?
    /// The name the home gives the whole node when it shows it as one device of several parts; nil until one is set.
    public var name: String?
    public var attestation: Attestation
    public var state: CommissioningState
    /// Last known addresses (with their port), most recent first.
    public var addresses: [SocketAddress]
    /// The node's MRP intervals when it advertised them.
    public var mrpParameters: MRPParameters?
    public var createdAt: Date
    public var updatedAt: Date
    /// While `commissioning`: the process doing it (nil in rows from before it was recorded).
    public var owner: ProcessIdentity?
    /// The last commissioning step finished, from AddNOC on.
    public var stepReached: CommissioningStep?
    /// When its interrupted commissioning was finished apart from it (named after its product, in no room); nil once
    /// a commissioning of the same device adopted it (`HubStore.adoptRecovered`), and for a node added in one go.
    public var recoveredAt: Date?

    public init(
        nodeID: UInt64, vendorID: UInt16, productID: UInt16, vendorName: String? = nil, productName: String? = nil,
        serialNumber: String? = nil, name: String? = nil, attestation: Attestation, state: CommissioningState,
        addresses: [SocketAddress], mrpParameters: MRPParameters?, createdAt: Date, updatedAt: Date,
        owner: ProcessIdentity? = nil, stepReached: CommissioningStep? = nil, recoveredAt: Date? = nil
    ) {
        self.recoveredAt = recoveredAt
        self.owner = owner
        self.stepReached = stepReached
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.vendorName = vendorName
        self.productName = productName
        self.serialNumber = serialNumber
        self.name = name
        self.attestation = attestation
        self.state = state
        self.addresses = addresses
        self.mrpParameters = mrpParameters
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
