import HomeRecords
import MatterCertificates
import MatterOnboarding
import MatterPlatform

/// What the user asked: which device (its onboarding payload, and where it is when known), and how strict to be.
public struct CommissioningRequest: Sendable {
    public var payload: SetupPayload
    /// Skips discovery: the device's commissioning address.
    public var address: SocketAddress?
    /// Interfaces mDNS may use to find the device and, later, its operational record. Empty: no mDNS at all.
    public var interfaces: [String]
    public var trustStore: PAATrustStore
    /// Accept certification declarations signed with the CSA's test key (development devices).
    public var developmentMode: Bool
    /// Commission a device that fails attestation; it is recorded as untrusted.
    public var acceptUntrustedDevice: Bool
    /// The open add-device session the node joins (in the transaction that first stores it), or nil outside one.
    public var session: String?
    /// The Wi-Fi and Thread networks the device may be given before it is found operationally (the one its
    /// interface takes); empty for a device already on the IP network it is reached on.
    public var networks: [NetworkCredentials]
    /// Reach the device over Bluetooth LE through this central (a device fresh from its box); nil: over IP.
    public var bluetooth: (any BluetoothCentral)?
    /// Have the device scan for the network first (ScanNetworks), so one it cannot see fails before it is given.
    public var scanNetworks = false

    public init(
        payload: SetupPayload, address: SocketAddress? = nil, interfaces: [String] = [], trustStore: PAATrustStore,
        developmentMode: Bool = true, acceptUntrustedDevice: Bool = false, session: String? = nil,
        networks: [NetworkCredentials] = [], bluetooth: (any BluetoothCentral)? = nil
    ) {
        self.session = session
        self.networks = networks
        self.bluetooth = bluetooth
        self.payload = payload
        self.address = address
        self.interfaces = interfaces
        self.trustStore = trustStore
        self.developmentMode = developmentMode
        self.acceptUntrustedDevice = acceptUntrustedDevice
    }
}

/// What commissioning achieved.
public struct CommissioningResult: Sendable {
    public let nodeID: UInt64
    public let vendorID: UInt16
    public let productID: UInt16
    /// The device as its interview described it; nil when the interview failed after commissioning completed.
    public let description: NodeDescription?
    /// "trusted", or why the device was accepted although attestation failed.
    public let attestation: NodeRecord.Attestation
    public let stepDurations: [(step: CommissioningStep, duration: Duration)]
    public let elapsed: Duration
    /// The devices the node added to the home (one per application endpoint).
    public let devices: [DeviceID]
}

/// One line of progress: a step started or ended.
public enum CommissioningProgress: Sendable {
    case started(CommissioningStep)
    case finished(CommissioningStep, Duration)
    case note(String)
}
