import MatterCrypto
import MatterMessaging

// Matter Core §11.10.7.2 ArmFailSafe, §11.10.7.2.2 fail-safe expiry: what a commissioner changed under an armed
// fail-safe, so that expiry puts the device back as it was and CommissioningComplete keeps it.
public struct FailSafe: Sendable {
    public var deadline: Instant
    /// The latest deadline re-arming may reach (MaxCumulativeFailsafeSeconds after the first arming).
    public let cumulativeLimit: Instant
    /// The fabric of the session that armed it; 0 for a PASE session before AddNOC.
    public var fabricIndex: UInt8
    /// The fabric table when the fail-safe was armed: what expiry restores.
    public var fabricsBefore: [Fabric]
    /// AddTrustedRootCertificate's root, waiting for AddNOC.
    public var pendingRoot: [UInt8]?
    /// The key of the last CSRRequest, and whether it was asked for UpdateNOC.
    public var pendingKey: P256.PrivateKey?
    public var pendingKeyIsForUpdate = false
    /// What AddNOC or UpdateNOC did under this fail-safe (§11.18.6.8: once each).
    public var addedFabric: UInt8?
    public var updatedFabric: UInt8?

    public init(deadline: Instant, cumulativeLimit: Instant, fabricIndex: UInt8, fabricsBefore: [Fabric]) {
        self.deadline = deadline
        self.cumulativeLimit = cumulativeLimit
        self.fabricIndex = fabricIndex
        self.fabricsBefore = fabricsBefore
    }
}
