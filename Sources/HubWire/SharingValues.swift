import Foundation

/// A window in which another ecosystem (another phone's home app, Home Assistant, a second hub) can add the device:
/// the codes to give it, and when the window closes.
public struct CommissioningWindow: Sendable, Hashable, Codable {
    public let qrCode: String
    public let manualCode: String
    public let discriminator: UInt16
    public let expiresAt: Date

    package init(qrCode: String, manualCode: String, discriminator: UInt16, expiresAt: Date) {
        self.qrCode = qrCode
        self.manualCode = manualCode
        self.discriminator = discriminator
        self.expiresAt = expiresAt
    }
}

/// Whether the device's node can be added by another ecosystem now (Matter Core §11.19.7.1 WindowStatus).
public enum CommissioningWindowStatus: Sendable, Hashable, Codable {
    case closed
    /// Open with a passcode of its own (`openCommissioningWindow`).
    case enhanced
    /// Open with the device's own setup code (`openBasicCommissioningWindow`).
    case basic
}

/// One ecosystem that controls the device's node: a fabric on it (Matter Core §11.18.5.3 FabricDescriptorStruct).
public struct DeviceFabric: Sendable, Hashable, Codable {
    public let index: UInt8
    public let vendorID: UInt16
    /// The ecosystem's name for the vendor IDs people meet; nil for others.
    public let vendorName: String?
    public let label: String
    /// The node's ID on that fabric.
    public let nodeID: UInt64
    public let fabricID: UInt64
    /// The first 8 bytes of SHA-256 of the fabric's root public key, in hex: what tells two fabrics of one vendor apart.
    public let rootKeyFingerprint: String
    /// Whether this is this hub's own fabric.
    public let isThisHub: Bool

    package init(
        index: UInt8, vendorID: UInt16, vendorName: String?, label: String, nodeID: UInt64, fabricID: UInt64,
        rootKeyFingerprint: String, isThisHub: Bool
    ) {
        self.index = index
        self.vendorID = vendorID
        self.vendorName = vendorName
        self.label = label
        self.nodeID = nodeID
        self.fabricID = fabricID
        self.rootKeyFingerprint = rootKeyFingerprint
        self.isThisHub = isThisHub
    }
}

/// Names for the vendor IDs a user meets on a device's fabrics (the CSA's Distributed Compliance Ledger's names).
package enum VendorNames {
    package static let known: [UInt16: String] = [
        0x1349: "Apple Home", 0x6006: "Google", 0x1217: "Amazon Alexa", 0x10E1: "Samsung SmartThings",
        0x134B: "Home Assistant (Nabu Casa)",
        0xFFF1: "test vendor 1", 0xFFF2: "test vendor 2", 0xFFF3: "test vendor 3", 0xFFF4: "test vendor 4",
    ]

    package static func name(of vendorID: UInt16) -> String? {
        known[vendorID]
    }
}
