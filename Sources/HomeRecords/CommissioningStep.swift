// Matter Core §5.5 Commissioning Flows: the steps a commissioner takes, in order, each with its own
// deadline and its own name in progress lines and errors.
public enum CommissioningStep: String, CaseIterable, Sendable, Codable, Comparable, CustomStringConvertible {
    case discovery = "discover the device"
    case bluetoothSession = "BTP session"
    case passcodeSession = "PASE session"
    case armFailSafe = "arm fail-safe"
    case regulatoryConfig = "set regulatory config"
    case deviceAttestation = "device attestation"
    case certificateSigningRequest = "CSR"
    case addTrustedRoot = "add trusted root"
    case addOperationalCertificate = "add NOC"
    case networkSetup = "network setup"
    case operationalDiscovery = "operational discovery"
    case operationalSession = "CASE session"
    case commissioningComplete = "commissioning complete"
    case interview = "read device information"

    public var description: String { rawValue }

    /// How long the step may take, with the reason.
    public var timeout: Duration {
        switch self {
        // mDNS re-queries at 1, 2, 4 s: three rounds find any responsive device.
        case .discovery, .operationalDiscovery: .seconds(10)
        // A BLE connection (a proxy gives a peripheral up to 30 s), its GATT discovery, then BTP's 5 s handshake.
        case .bluetoothSession: .seconds(40)
        // PBKDF2 and SPAKE2+ on the device: seconds on slow or interpreted devices (see HubTiming).
        case .passcodeSession, .operationalSession: .seconds(60)
        // Attestation and CSR make the device sign with its DAC or generate a key pair.
        case .deviceAttestation, .certificateSigningRequest: .seconds(30)
        // A reply to one invoke: MRP's five transmissions take under 6 s; the rest is the device's work.
        case .armFailSafe, .regulatoryConfig, .addTrustedRoot, .addOperationalCertificate, .commissioningComplete:
            .seconds(30)
        // The credentials, then ConnectNetwork: a device answers once it joined, within its ConnectMaxTimeSeconds
        // (devices state 20 to 60 s); the fail-safe's 60 s bound the whole commissioning anyway.
        case .networkSetup: .seconds(60)
        // A priming report of a whole device spans several packets.
        case .interview: .seconds(30)
        }
    }
}

extension CommissioningStep {
    /// In the order the flow takes them.
    public static func < (lhs: CommissioningStep, rhs: CommissioningStep) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
