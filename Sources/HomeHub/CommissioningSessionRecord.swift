import Foundation
import HomeRecords

/// The home's add-device session: who opened it, for which structure, until when, with which discovery settings,
/// and the nodes commissioned in it so far.
public struct CommissioningSessionRecord: Sendable, Hashable {
    public let id: String
    public let structureID: String
    public let owner: ProcessIdentity
    public let deadline: Date
    /// Interfaces mDNS may use to find devices; empty: no mDNS.
    public let interfaces: [String]
    /// The directory of trusted PAA certificates attestation checks against.
    public let paaTrustStore: String
    public let nodeIDs: [UInt64]

    public init(
        id: String, structureID: String, owner: ProcessIdentity, deadline: Date, interfaces: [String],
        paaTrustStore: String,
        nodeIDs: [UInt64] = []
    ) {
        self.id = id
        self.structureID = structureID
        self.owner = owner
        self.deadline = deadline
        self.interfaces = interfaces
        self.paaTrustStore = paaTrustStore
        self.nodeIDs = nodeIDs
    }

    /// A session whose owner died or whose deadline passed no longer holds the home.
    public func isAbandoned(now: Date) -> Bool {
        now >= deadline || !owner.isRunning
    }
}
