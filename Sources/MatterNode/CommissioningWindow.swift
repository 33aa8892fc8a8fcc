import MatterCrypto
import MatterDiscovery
import MatterMessaging

// Matter Core §5.4.2 Commissioning window and §11.19 Administrator Commissioning: while open, PASE with this
// verifier is accepted and the device advertises `_matterc._udp`.
public struct CommissioningWindow: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Opened at start-up while the device has no fabric, with the onboarding payload's passcode.
        case initial
        /// OpenBasicCommissioningWindow: the onboarding payload's passcode, opened by an administrator.
        case basic
        /// OpenCommissioningWindow: a verifier the administrator chose.
        case enhanced
    }

    public var kind: Kind
    public var verifier: Spake2PlusVerifierData
    public var iterations: UInt32
    public var salt: [UInt8]
    public var discriminator: UInt16
    /// When the window closes by itself; nil for the initial window, open until the device is commissioned.
    public var deadline: Instant?
    /// Who opened it (AdminFabricIndex, AdminVendorId); nil for the initial window.
    public var adminFabricIndex: UInt8?
    public var adminVendorID: UInt16?

    public init(
        kind: Kind, verifier: Spake2PlusVerifierData, iterations: UInt32, salt: [UInt8], discriminator: UInt16,
        deadline: Instant?
    ) {
        self.kind = kind
        self.verifier = verifier
        self.iterations = iterations
        self.salt = salt
        self.discriminator = discriminator
        self.deadline = deadline
    }

    /// The `CM` value advertised while it is open (§4.3.1.3).
    public var commissioningMode: CommissioningMode {
        kind == .enhanced ? .enhanced : .basic
    }
}
