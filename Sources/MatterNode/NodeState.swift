import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterTLV

/// The session a request arrived on, as the commissioning clusters need to know it.
public struct RequestSession: Hashable, Sendable {
    public var handle: SessionHandle
    /// §4.14.1.4 / §4.14.2.6 AttestationChallenge of the session keys, which attestation and CSR responses sign.
    public var attestationChallenge: [UInt8]
    public var isPASE: Bool

    public init(handle: SessionHandle, attestationChallenge: [UInt8], isPASE: Bool) {
        self.handle = handle
        self.attestationChallenge = attestationChallenge
        self.isPASE = isPASE
    }
}

/// The node-wide state the root clusters share: fabrics, fail-safe, commissioning window, data versions, and what
/// the device must do after a request (`effects`). The device sets `now` and `session` before each request.
public struct NodeState: Sendable {
    public private(set) var identity: NodeIdentity
    /// What lets others commission it; nil for a node that is only ever the authority of its own fabric (the hub).
    public let commissionable: Commissionable?
    public var fabrics: [Fabric]
    public var failSafe: FailSafe?
    public var commissioningWindow: CommissioningWindow?
    public var breadcrumb: UInt64 = 0
    /// §11.10.5.3 RegulatoryConfig, as SetRegulatoryConfig last set it (2: indoor and outdoor).
    public var regulatoryConfig: UInt8 = 2
    /// The counter of the group messages the node sends, on every fabric (§4.5.1.2).
    public var groupMessageCounter: GroupMessageCounter
    public var now: Instant = .zero
    public var session: RequestSession?
    public let random: any RandomSource
    public private(set) var versions: [ConcreteClusterPath: UInt32] = [:]
    /// Attributes changed since the device last collected them, for subscriptions.
    public var changedPaths: [ConcreteAttributePath] = []
    public var effects: [NodeEffect] = []
    /// Signals for the other clusters of an endpoint, delivered by the data model after the request.
    public var signals: [(endpoint: UInt16, signal: EndpointSignal)] = []
    /// The most recent events, oldest first (`NodeConstants.eventBufferSize`).
    public private(set) var events: [EventDataIB] = []
    private var lastEventNumber: UInt64 = 0

    /// A commissionable node: with no fabric yet, its onboarding window is open.
    public init(
        identity: NodeIdentity, attestation: DevelopmentAttestation, onboardingWindow: CommissioningWindow,
        fabrics: [Fabric], random: any RandomSource, groupMessageCounter: UInt32? = nil
    ) {
        self.init(
            identity: identity,
            commissionable: Commissionable(attestation: attestation, onboardingWindow: onboardingWindow),
            fabrics: fabrics, random: random, groupMessageCounter: groupMessageCounter)
    }

    public init(
        identity: NodeIdentity, commissionable: Commissionable?, fabrics: [Fabric], random: any RandomSource,
        groupMessageCounter: UInt32? = nil
    ) {
        self.groupMessageCounter =
            groupMessageCounter.map(GroupMessageCounter.init(restoredAt:)) ?? GroupMessageCounter(random: random)
        self.identity = identity
        self.commissionable = commissionable
        self.fabrics = fabrics
        self.random = random
        commissioningWindow = fabrics.isEmpty ? commissionable?.onboardingWindow : nil
    }

    public func fabric(_ index: UInt8) -> Fabric? {
        fabrics.first { $0.index == index }
    }

    /// §7.10.3: a cluster instance's data version starts at a random value and grows by one per change.
    public func dataVersion(of cluster: ConcreteClusterPath) -> UInt32 {
        versions[cluster] ?? initialVersion(cluster)
    }

    private func initialVersion(_ cluster: ConcreteClusterPath) -> UInt32 {
        // Stable per cluster within one run, different across clusters: a subscriber never mistakes one for another.
        UInt32(
            truncatingIfNeeded: (UInt64(cluster.endpoint) << 32 | UInt64(cluster.cluster)) &* 0x9E37_79B9_7F4A_7C15
                >> 32)
    }

    /// These attributes changed: their cluster's data version grows and subscribers will hear of them.
    public mutating func markChanged(endpoint: UInt16, cluster: UInt32, attributes: [UInt32]) {
        let path = ConcreteClusterPath(endpoint: endpoint, cluster: cluster)
        versions[path] = dataVersion(of: path) &+ 1
        changedPaths += attributes.map { ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: $0) }
    }

    /// Records an event with the next event number (§7.14.2.1), for subscribers and readers.
    public mutating func record(_ path: EventPathIB, priority: EventPriority, data: TLVElement?) {
        lastEventNumber += 1
        events.append(
            EventDataIB(
                path: path, eventNumber: lastEventNumber, priority: priority.rawValue,
                timestamp: .systemMilliseconds(now.nanoseconds / 1_000_000), data: data))
        if events.count > NodeConstants.eventBufferSize {
            events.removeFirst(events.count - NodeConstants.eventBufferSize)
        }
    }

    /// A new software version runs (an OTA update applied, Matter Core §11.21): Basic Information says so, and a
    /// StartUp event with it opens the new boot (§11.1.6.1).
    public mutating func runSoftwareVersion(_ version: UInt32, string: String) {
        identity.softwareVersion = version
        identity.softwareVersionString = string
        markChanged(
            endpoint: 0, cluster: BasicInformationCluster.id.rawValue,
            attributes: [
                BasicInformationCluster.Attributes.softwareVersion.id.rawValue,
                BasicInformationCluster.Attributes.softwareVersionString.id.rawValue,
            ])
        record(BasicInformationCluster.Events.StartUp(softwareVersion: version), endpoint: 0)
    }

    /// Records one of a cluster's generated events.
    public mutating func record<Event: ClusterEvent>(_ event: Event, endpoint: UInt16) {
        record(
            EventPathIB(endpoint: endpoint, cluster: Event.Cluster.id.rawValue, event: Event.id.rawValue),
            priority: Event.priority,
            data: TLVElement(event.tlvValue()))
    }

    /// Fabric-table attributes of the root endpoint, after a fabric was added, updated or removed.
    mutating func fabricsChanged() {
        markChanged(endpoint: 0, cluster: OperationalCredentialsCluster.id.rawValue, attributes: [0, 1, 3, 4])
        markChanged(endpoint: 0, cluster: AccessControlCluster.id.rawValue, attributes: [0])
        effects += [.persist, .advertise]
    }

    /// The lowest free fabric index, nil when the table is full.
    func freeFabricIndex() -> UInt8? {
        guard fabrics.count < Int(NodeConstants.supportedFabrics) else { return nil }
        return NodeConstants.fabricIndices.first { index in !fabrics.contains { $0.index == index } }
    }

    // MARK: Fail-safe

    /// §11.10.7.2.2: puts back the fabric table as it was when the fail-safe was armed and ends the sessions of
    /// every fabric that was added or changed under it.
    public mutating func expireFailSafe() {
        guard let failSafe else { return }
        self.failSafe = nil
        signals.append((endpoint: 0, signal: .failSafeEnded(committed: false)))
        let restored = failSafe.fabricsBefore
        let touched = Set(fabrics.map(\.index)).union(restored.map(\.index)).filter { index in
            fabrics.first { $0.index == index } != restored.first { $0.index == index }
        }
        fabrics = restored
        breadcrumb = 0
        markChanged(endpoint: 0, cluster: GeneralCommissioningCluster.id.rawValue, attributes: [0])
        if !touched.isEmpty {
            fabricsChanged()
            effects += touched.sorted().map { .closeSessions(fabricIndex: $0) }
            effects.append(
                .log(
                    "[commissioning] fail-safe expired: rolled back fabric \(touched.sorted().map(String.init).joined(separator: ", "))"
                ))
        } else {
            effects.append(.log("[commissioning] fail-safe expired"))
        }
        if fabrics.isEmpty, commissioningWindow == nil {
            commissioningWindow = commissionable?.onboardingWindow
            effects.append(.advertise)
        }
    }

    /// Closes the commissioning window (commissioning completed, it timed out, or it was revoked).
    mutating func closeCommissioningWindow() {
        guard commissioningWindow != nil else { return }
        commissioningWindow = nil
        markChanged(endpoint: 0, cluster: AdministratorCommissioningCluster.id.rawValue, attributes: [0, 1, 2])
        effects += [.closePASESessions, .advertise]
    }
}

/// What a node others may commission carries (Matter Core §6.2 and §5.4.2): the attestation it proves itself with,
/// and the window its onboarding payload's passcode opens.
public struct Commissionable: Sendable {
    public let attestation: DevelopmentAttestation
    /// The onboarding payload's passcode verifier: the initial and basic windows use it.
    public let onboardingWindow: CommissioningWindow

    public init(attestation: DevelopmentAttestation, onboardingWindow: CommissioningWindow) {
        self.attestation = attestation
        self.onboardingWindow = onboardingWindow
    }
}
