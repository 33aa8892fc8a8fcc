import HomeRecords
import MatterPlatform

// Matter Core §5.5: the commissioner's flow as a value type. Each phase holds exactly what the commissioning has
// established by then; the machine decides the next step and hands the driver exactly what that step needs, skips
// what the link and the request make needless, decides whether a device failing attestation goes on, and says what a
// failure must undo. The `Commissioner` carries the steps out and reports what each learned.

/// What the steps produce, as the driver holds them: the commissioner's sessions and certificates, or a test's
/// stand-ins. The machine never looks inside them.
public protocol CommissioningArtifacts {
    /// A secure session with the device (PASE, then CASE), with the address it was established at.
    associatedtype Session: Sendable
    /// What attestation learned of the device (its DAC's key, its vendor and product).
    associatedtype Attestation: Sendable
    /// The device's verified certificate signing request.
    associatedtype SigningRequest: Sendable
    /// Other devices discovery found for the payload, to try when PASE with the first fails.
    associatedtype Fallbacks: Sendable
}

/// How the commissioner reaches the device for PASE: the link picks the branch.
public enum CommissioningLink: Sendable, Hashable {
    /// Over IP: the device is on an IP network already (Ethernet, or shared from another ecosystem), so network
    /// setup runs only when the request names a network to move it to.
    case ip
    /// Over Bluetooth LE (Matter Core §5.4.2.5 and §4.17): a device fresh from its box is on no network; it must be
    /// given Wi-Fi or Thread credentials before it can be found operationally.
    case bluetoothLE
}

/// Credentials for a device's network interface (Matter Core §11.9.7.3 and §11.9.7.4).
public enum NetworkCredentials: Sendable, Hashable {
    /// A Wi-Fi network: its SSID (1 to 32 octets) and passphrase or PSK (empty for an open network, else 8 to 64).
    case wifi(ssid: [UInt8], credentials: [UInt8])
    /// A Thread network: its Operational Dataset, as Thread's MeshCoP TLVs (at most 254 octets).
    case thread(operationalDataset: [UInt8])

    public enum Kind: String, Sendable, Hashable, Codable {
        case wifi, thread
    }

    public var kind: Kind {
        switch self {
        case .wifi: .wifi
        case .thread: .thread
        }
    }
}

public struct CommissioningStateMachine<Artifacts: CommissioningArtifacts>: Sendable {
    public typealias Session = Artifacts.Session

    public struct Options: Sendable {
        public var link: CommissioningLink
        /// The device's commissioning address when the caller gave it: discovery is skipped.
        public var address: SocketAddress?
        /// The networks the device may be given in network setup (the one its interface takes is picked then); a
        /// Bluetooth LE link requires one.
        public var networks: [NetworkCredentials]
        /// The user accepted a device that fails attestation; it is recorded as untrusted.
        public var acceptUntrustedDevice: Bool

        public init(
            link: CommissioningLink = .ip, address: SocketAddress? = nil, networks: [NetworkCredentials] = [],
            acceptUntrustedDevice: Bool = false
        ) {
            self.link = link
            self.address = address
            self.networks = networks
            self.acceptUntrustedDevice = acceptUntrustedDevice
        }
    }

    /// PASE is up: the device is under our fail-safe, at this address (over IP or a BLE connection).
    public struct Secured: Sendable {
        public let pase: Session
        public let address: PeerAddress

        /// Its IP address, when PASE runs over IP.
        public var udpAddress: SocketAddress? {
            if case .udp(let address) = address { return address }
            return nil
        }
    }

    /// Attestation passed, or failed and the user accepted the device anyway.
    public struct Attested: Sendable {
        public let secured: Secured
        public let attestation: Artifacts.Attestation
        /// "trusted", or why the device was let in although attestation failed.
        public let record: NodeRecord.Attestation
    }

    /// The device holds our NOC as node `nodeID` (its fabric index for us, when AddNOC's answer gave one).
    public struct Enrolled: Sendable {
        public let attested: Attested
        public let nodeID: UInt64
        public let fabricIndex: UInt8?
        public var secured: Secured { attested.secured }
    }

    /// CASE is up on the operational network.
    public struct Operational: Sendable {
        public let enrolled: Enrolled
        public let session: Session
        public let address: SocketAddress
    }

    /// Commissioning completed: the device is ours for good (§5.5).
    public struct Commissioned: Sendable {
        public let operational: Operational
        /// What the interview learned; nil, with why, when it failed: what a device is can be read again later.
        public let description: NodeDescription?
        public let interviewFailure: CommissioningFailure?
    }

    /// What a step learned, reported by the driver.
    public enum StepResult: Sendable {
        case discovered(SocketAddress, fallbacks: Artifacts.Fallbacks)
        /// Found advertising over Bluetooth LE.
        case foundOverBluetooth(BluetoothPeripheral)
        /// BTP is up over a BLE connection to the device.
        case bluetoothConnected(BluetoothConnection)
        case paseEstablished(Session, at: PeerAddress)
        case attested(Artifacts.Attestation)
        case signingRequestVerified(Artifacts.SigningRequest)
        case nocAdded(nodeID: UInt64, fabricIndex: UInt8?)
        case operationalFound(SocketAddress)
        case caseEstablished(Session, at: SocketAddress)
        case interviewed(NodeDescription)
        /// A step that learns nothing: the device answered success.
        case done
    }

    /// What the driver does next: a step with exactly what it needs, the end, or the undoing of a failure.
    public enum Action: Sendable {
        case discover
        case connectBluetooth(BluetoothPeripheral)
        case establishPASE(PeerAddress, fallbacks: Artifacts.Fallbacks?)
        case armFailSafe(Secured)
        case setRegulatoryConfig(Secured)
        case attest(Secured)
        case requestSigningRequest(Attested)
        case addTrustedRoot(Secured)
        case addNOC(Attested, Artifacts.SigningRequest)
        case setUpNetwork(Enrolled, [NetworkCredentials])
        case discoverOperational(Enrolled)
        case establishCASE(Enrolled, at: SocketAddress)
        case completeCommissioning(Operational)
        case interview(Operational)
        /// Every step that matters succeeded: store the node and its devices.
        case finish(Commissioned)
        /// A step failed: undo what `undo` says, then report `error`.
        case fail(CommissioningError, undo: Undo)

        /// The step this action runs; nil for the end.
        public var step: CommissioningStep? {
            switch self {
            case .discover: .discovery
            case .connectBluetooth: .bluetoothSession
            case .establishPASE: .passcodeSession
            case .armFailSafe: .armFailSafe
            case .setRegulatoryConfig: .regulatoryConfig
            case .attest: .deviceAttestation
            case .requestSigningRequest: .certificateSigningRequest
            case .addTrustedRoot: .addTrustedRoot
            case .addNOC: .addOperationalCertificate
            case .setUpNetwork: .networkSetup
            case .discoverOperational: .operationalDiscovery
            case .establishCASE: .operationalSession
            case .completeCommissioning: .commissioningComplete
            case .interview: .interview
            case .finish, .fail: nil
            }
        }
    }

    /// What a failure leaves to undo, by how far the commissioning got.
    public struct Undo: Sendable {
        /// The PASE session to disarm the fail-safe over (which makes the device drop everything done under it,
        /// §11.10.7.2.2), nil when PASE never came up.
        public let secured: Secured?
        /// AddNOC succeeded: RemoveFabric for this index over PASE first, and the node's row is forgotten.
        public let enrolled: Enrolled?
        /// The commissioner's own CASE session, to close.
        public let operational: Operational?
    }

    private enum Phase: Sendable {
        case idle
        case discovering
        case connectingBluetooth
        case establishingPASE
        case armingFailSafe(Secured)
        case settingRegulatoryConfig(Secured)
        case attesting(Secured)
        case requestingSigningRequest(Attested)
        case addingTrustedRoot(Attested, Artifacts.SigningRequest)
        case addingNOC(Attested, Artifacts.SigningRequest)
        case settingUpNetwork(Enrolled)
        case discoveringOperational(Enrolled)
        case establishingCASE(Enrolled)
        case completing(Operational)
        case interviewing(Operational)
        case ended
    }

    private var phase = Phase.idle
    private let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// The steps this commissioning takes, in order.
    public var plan: [CommissioningStep] {
        CommissioningStep.allCases.filter { step in
            switch step {
            case .discovery: options.address == nil || options.link == .bluetoothLE
            case .bluetoothSession: options.link == .bluetoothLE
            case .networkSetup: needsNetworkSetup
            default: true
            }
        }
    }

    /// Over IP the device is on a network already; over BLE it is on none until given one.
    private var needsNetworkSetup: Bool {
        switch options.link {
        case .ip: !options.networks.isEmpty
        case .bluetoothLE: true
        }
    }

    /// The node's ID once AddNOC gave it one: from then on a crash leaves a row to finish or roll back.
    public var nodeID: UInt64? {
        switch phase {
        case .settingUpNetwork(let enrolled), .discoveringOperational(let enrolled), .establishingCASE(let enrolled):
            enrolled.nodeID
        case .completing(let operational), .interviewing(let operational): operational.enrolled.nodeID
        default: nil
        }
    }

    public mutating func start() -> Action {
        guard case .idle = phase else { return fail(.outOfOrder(nil, expected: nil)) }
        if options.link == .bluetoothLE, options.networks.isEmpty {
            phase = .ended
            return .fail(
                .stepFailed(
                    .networkSetup,
                    CommissioningFailure(
                        .refused, "a device reached over Bluetooth LE must be given Wi-Fi or Thread credentials")),
                undo: Undo(secured: nil, enrolled: nil, operational: nil))
        }
        if let address = options.address, options.link == .ip {
            phase = .establishingPASE
            return .establishPASE(.udp(address), fallbacks: nil)
        }
        phase = .discovering
        return .discover
    }

    /// The running step succeeded and learned `result`.
    public mutating func succeeded(_ result: StepResult) -> Action {
        switch (phase, result) {
        case (.discovering, .discovered(let address, let fallbacks)) where options.link == .ip:
            phase = .establishingPASE
            return .establishPASE(.udp(address), fallbacks: fallbacks)
        case (.discovering, .foundOverBluetooth(let peripheral)) where options.link == .bluetoothLE:
            phase = .connectingBluetooth
            return .connectBluetooth(peripheral)
        case (.connectingBluetooth, .bluetoothConnected(let connection)):
            phase = .establishingPASE
            return .establishPASE(.bluetooth(connection), fallbacks: nil)
        case (.establishingPASE, .paseEstablished(let pase, let address)):
            let secured = Secured(pase: pase, address: address)
            phase = .armingFailSafe(secured)
            return .armFailSafe(secured)
        case (.armingFailSafe(let secured), .done):
            phase = .settingRegulatoryConfig(secured)
            return .setRegulatoryConfig(secured)
        case (.settingRegulatoryConfig(let secured), .done):
            phase = .attesting(secured)
            return .attest(secured)
        case (.attesting(let secured), .attested(let attestation)):
            return attested(
                Attested(
                    secured: secured, attestation: attestation,
                    record: NodeRecord.Attestation(verdict: "trusted", trusted: true)))
        case (.requestingSigningRequest(let attested), .signingRequestVerified(let request)):
            phase = .addingTrustedRoot(attested, request)
            return .addTrustedRoot(attested.secured)
        case (.addingTrustedRoot(let attested, let request), .done):
            phase = .addingNOC(attested, request)
            return .addNOC(attested, request)
        case (.addingNOC(let attested, _), .nocAdded(let nodeID, let fabricIndex)):
            let enrolled = Enrolled(attested: attested, nodeID: nodeID, fabricIndex: fabricIndex)
            if needsNetworkSetup {
                phase = .settingUpNetwork(enrolled)
                return .setUpNetwork(enrolled, options.networks)
            }
            phase = .discoveringOperational(enrolled)
            return .discoverOperational(enrolled)
        case (.settingUpNetwork(let enrolled), .done):
            phase = .discoveringOperational(enrolled)
            return .discoverOperational(enrolled)
        case (.discoveringOperational(let enrolled), .operationalFound(let address)):
            phase = .establishingCASE(enrolled)
            return .establishCASE(enrolled, at: address)
        case (.establishingCASE(let enrolled), .caseEstablished(let session, let address)):
            let operational = Operational(enrolled: enrolled, session: session, address: address)
            phase = .completing(operational)
            return .completeCommissioning(operational)
        case (.completing(let operational), .done):
            phase = .interviewing(operational)
            return .interview(operational)
        case (.interviewing(let operational), .interviewed(let description)):
            phase = .ended
            return .finish(Commissioned(operational: operational, description: description, interviewFailure: nil))
        default:
            return fail(.outOfOrder(nil, expected: currentStep))
        }
    }

    /// Attestation failed; `attestation` is what it learned all the same. The device goes on only when the user
    /// accepted untrusted devices.
    public mutating func attestationFailed(
        _ attestation: Artifacts.Attestation, _ failure: CommissioningFailure
    ) -> Action {
        guard case .attesting(let secured) = phase else {
            return fail(.outOfOrder(.deviceAttestation, expected: currentStep))
        }
        guard options.acceptUntrustedDevice else { return fail(.stepFailed(.deviceAttestation, failure)) }
        return attested(
            Attested(
                secured: secured, attestation: attestation,
                record: NodeRecord.Attestation(
                    verdict: "accepted by the user although attestation failed: \(failure)", trusted: false)))
    }

    private mutating func attested(_ attested: Attested) -> Action {
        phase = .requestingSigningRequest(attested)
        return .requestSigningRequest(attested)
    }

    /// The running step failed.
    public mutating func failed(_ step: CommissioningStep, _ failure: CommissioningFailure) -> Action {
        guard step == currentStep else { return fail(.outOfOrder(step, expected: currentStep)) }
        if case .interviewing(let operational) = phase {
            // CommissioningComplete succeeded: the device is ours, and what it is can be read again later.
            phase = .ended
            return .finish(Commissioned(operational: operational, description: nil, interviewFailure: failure))
        }
        return fail(.stepFailed(step, failure))
    }

    /// The step running now.
    public var currentStep: CommissioningStep? {
        switch phase {
        case .idle, .ended: nil
        case .discovering: .discovery
        case .connectingBluetooth: .bluetoothSession
        case .establishingPASE: .passcodeSession
        case .armingFailSafe: .armFailSafe
        case .settingRegulatoryConfig: .regulatoryConfig
        case .attesting: .deviceAttestation
        case .requestingSigningRequest: .certificateSigningRequest
        case .addingTrustedRoot: .addTrustedRoot
        case .addingNOC: .addOperationalCertificate
        case .settingUpNetwork: .networkSetup
        case .discoveringOperational: .operationalDiscovery
        case .establishingCASE: .operationalSession
        case .completing: .commissioningComplete
        case .interviewing: .interview
        }
    }

    /// Ends the commissioning with `error`, undoing what the phase it reached says.
    private mutating func fail(_ error: CommissioningError) -> Action {
        let undo: Undo =
            switch phase {
            case .idle, .ended, .discovering, .connectingBluetooth, .establishingPASE:
                Undo(secured: nil, enrolled: nil, operational: nil)
            case .armingFailSafe(let secured), .settingRegulatoryConfig(let secured), .attesting(let secured):
                Undo(secured: secured, enrolled: nil, operational: nil)
            case .requestingSigningRequest(let attested), .addingTrustedRoot(let attested, _),
                .addingNOC(let attested, _):
                Undo(secured: attested.secured, enrolled: nil, operational: nil)
            case .settingUpNetwork(let enrolled), .discoveringOperational(let enrolled),
                .establishingCASE(let enrolled):
                Undo(secured: enrolled.secured, enrolled: enrolled, operational: nil)
            case .completing(let operational), .interviewing(let operational):
                Undo(secured: operational.enrolled.secured, enrolled: operational.enrolled, operational: operational)
            }
        phase = .ended
        return .fail(error, undo: undo)
    }
}

public enum CommissioningError: Error, Sendable, Equatable, CustomStringConvertible {
    case stepFailed(CommissioningStep, CommissioningFailure)
    /// The driver reported a result the running step cannot give (a bug in the driver).
    case outOfOrder(CommissioningStep?, expected: CommissioningStep?)

    public var description: String {
        switch self {
        case .stepFailed(let step, let failure): "\(step) failed: \(failure)"
        case .outOfOrder(let step, let expected):
            "internal error: \(step.map(\.description) ?? "a result") reported while \(expected.map(\.description) ?? "nothing") was running"
        }
    }
}
