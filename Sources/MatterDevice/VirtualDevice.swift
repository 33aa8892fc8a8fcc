import BLEProxy
import Foundation
import MatterBTP
import MatterCrypto
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterOnboarding
import MatterPlatform
import MatterSecureChannel
import MatterTLV

/// A commissionable Matter device over IP: a `LocalNode` serving the data model of its kind, whose clusters act on
/// their own every simulation step and under a person's hand, with its state kept in its store.
public actor VirtualDevice {
    /// The onboarding payload of the initial window (QR code and manual code).
    public nonisolated let setupPayload: SetupPayload
    /// The UDP port the device answers on (IPv4; IPv6 is bound too, on the same port unless it was ephemeral).
    public nonisolated var port: UInt16 { node.port }
    public nonisolated let attestation: DevelopmentAttestation
    public nonisolated let kind: DeviceKind

    nonisolated let node: LocalNode
    private let store: DeviceStore
    var factory: DeviceStateFile
    let log: @Sendable (String) -> Void
    let clock: any DriverClock
    /// An OTA update is under way (`requestUpdate`): another announcement meanwhile is heard and ignored.
    var isUpdating = false
    /// Where it advertises itself by mDNS; none: nowhere.
    let interfaces: [String]
    /// How it sleeps (an intermittently connected device); nil: it never does.
    let intermittent: IntermittentConnection?
    /// When it wakes next (an intermittently connected device).
    private var nextWake: Instant?
    /// Where each check-in client (by fabric index and node ID) was last reached from: a check-in goes there when no
    /// session and no DNS-SD finds it.
    var checkInAddresses: [CheckInClient: PeerAddress] = [:]

    struct CheckInClient: Hashable {
        let fabricIndex: UInt8
        let nodeID: UInt64
    }
    /// On no IP network until it joins one; found over Bluetooth LE.
    private let freshFromItsBox: Bool
    /// The device's one timer: the simulation acts every `simulationInterval`, drawing from `simulationRandom`, and
    /// the OTA requestor asks its default providers every `DeviceConstants.otaQueryInterval`.
    private var timer = DeadlineTimer()
    private var nextUpdateQuery: Instant
    private var isRunning = false
    private let simulationInterval: Duration
    private var simulationRandom: SimulationRandom
    private var nextSimulationStep: Instant

    /// A device from its stored state (`DeviceStore.loadOrCreate`), answering on `port` (0: ephemeral, for tests),
    /// or on the given bound `sockets` (tests that impair the network). With no `interfaces` it does not advertise.
    /// `simulation` sets how its sensors and buttons act on their own; with a `radio` its root endpoint has a Network
    /// Commissioning cluster, to be given and join the Wi-Fi or Thread networks the radio finds. `freshFromItsBox`:
    /// it is on no IP network until it joins the one it is given, reachable over Bluetooth LE only (its QR code says
    /// so), through a BLE proxy (`bluetoothPeripheral`).
    public init(
        store: DeviceStore, state: DeviceStateFile, port: UInt16 = 5540,
        sockets: (ipv4: any DatagramSocket, ipv6: any DatagramSocket)? = nil, multicast: (any MulticastLink)? = nil,
        interfaces: [String] = [],
        random: any RandomSource = SystemRandom(), simulation: Simulation = Simulation(), radio: SimulatedRadio? = nil,
        freshFromItsBox: Bool = false, intermittent: IntermittentConnection? = nil,
        clock: any DriverClock = SystemClock(), log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(DeviceError) {
        if freshFromItsBox, radio == nil {
            throw .invalidSetting("a device fresh from its box needs a Wi-Fi or Thread radio to be given a network")
        }
        self.freshFromItsBox = freshFromItsBox
        guard let kind = DeviceKind(rawValue: state.kind) else {
            throw .state(
                path: store.path,
                reason:
                    "unknown device type \"\(state.kind)\" (known: \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        self.interfaces = interfaces
        self.intermittent = intermittent
        let verifier: Spake2PlusVerifierData
        do {
            verifier = try Spake2PlusVerifierData(serialized: Array(state.verifier))
        } catch {
            throw .state(path: store.path, reason: "the passcode verifier is malformed: \(error)")
        }
        let transport: MatterTransport, boundPort: UInt16
        do {
            transport =
                if let sockets {
                    MatterTransport(
                        ipv4: sockets.ipv4, ipv6: sockets.ipv6, multicast: multicast, random: random, clock: clock)
                } else {
                    try MatterTransport(port: port, random: random, clock: clock)
                }
            boundPort = try transport.localPorts().ipv4
        } catch {
            throw .network("cannot bind UDP port \(port): \(error)")
        }
        var factory = state
        factory.rebootCount &+= 1
        self.factory = factory
        self.kind = kind
        self.store = store
        self.log = log
        self.clock = clock
        simulationInterval = simulation.interval
        simulationRandom = SimulationRandom(seed: simulation.seed)
        nextSimulationStep = clock.now + simulation.interval
        nextUpdateQuery = clock.now + DeviceConstants.otaQueryInterval
        attestation = state.attestation
        setupPayload = SetupPayload(
            vendorID: state.identity.vendorID, productID: state.identity.productID,
            discoveryCapabilities: freshFromItsBox ? .ble : .onNetwork,
            discriminator: .long(state.discriminator), passcode: state.passcode)
        let onboarding = CommissioningWindow(
            kind: .initial, verifier: verifier, iterations: state.iterations, salt: Array(state.salt),
            discriminator: state.discriminator, deadline: nil)
        let nodeState = NodeState(
            identity: state.identity, attestation: state.attestation, onboardingWindow: onboarding,
            fabrics: try state.restoredFabrics(), random: random, groupMessageCounter: state.groupMessageCounter)
        let endpoints = (state.bridge ?? BridgeChanges()).applied(
            to: kind.applicationEndpoints(), bridgeUniqueID: state.identity.uniqueID)
        var root = Endpoint.rootNode(
            interfaces: HostNetworkInterface.current(), rebootCount: factory.rebootCount, bootTime: .zero)
        if let radio {
            root.clusters +=
                [
                    NetworkCommissioningServer(radio: radio),
                    NetworkDiagnosticsServer(radio: radio, sleepy: intermittent != nil),
                ] as [any ClusterServer]
        }
        if let intermittent { root.clusters.append(IcdManagementServer(settings: intermittent)) }
        root.clusters.append(OTARequestorServer())
        var model = NodeDataModel(node: nodeState, root: root, applicationEndpoints: endpoints)
        model.restoreClusterState(state.clusters.mapValues(Array.init))
        // §11.1.6.1 StartUp: the first event of every boot, with the software version.
        model.record(
            EventPathIB(
                endpoint: 0, cluster: BasicInformationCluster.id.rawValue,
                event: BasicInformationCluster.Events.StartUp.id.rawValue),
            priority: .critical,
            data: TLVElement(
                .structure([TLVElement(tag: .context(0), .unsigned(UInt64(state.identity.softwareVersion)))])))
        node = LocalNode(
            model: model, transport: transport, port: boundPort,
            advertisedDeviceType: kind.primaryDeviceType.id.rawValue, random: random, clock: clock, log: log)
    }

    // MARK: Life cycle

    /// Saves the new boot count, starts answering and advertising.
    public func start() async throws(DeviceError) {
        try await save(await node.snapshot)
        do {
            // Fresh from its box and not yet on the network it was given: Bluetooth LE only.
            if freshFromItsBox, !(await networks.contains { $0.connected }) { await node.setOnIP(false) }
            await node.handleApplicationEffects { [weak self] effect in
                switch effect {
                case .updateAnnounced(let provider, let fabricIndex, let endpoint):
                    await self?.requestUpdate(from: provider, fabricIndex: fabricIndex, endpoint: endpoint)
                case .checkInClientRegistered(let nodeID, let fabricIndex):
                    await self?.noteCheckInAddress(of: nodeID, fabricIndex: fabricIndex)
                default: break
                }
            }
            await node.start { [weak self] snapshot in try await self?.save(snapshot) }
            try await node.advertise(on: interfaces)
            // Group messages come and go on the interfaces it advertises on.
            if !interfaces.isEmpty { await node.useGroupInterfaces(interfaces) }
        } catch {
            throw DeviceError(error)
        }
        isRunning = true
        if let intermittent {
            // A LIT device's radio listens only in active mode; it starts awake, as a device does at power-up.
            if intermittent.mode == .lit {
                await node.sleepBetweenActivity(
                    threshold: intermittent.activeModeThreshold, idleModeSeconds: intermittent.idleModeSeconds)
            }
            nextWake = clock.now + intermittent.activeMode + intermittent.idleMode
            await wake()
        }
        armTimer()
    }

    /// Joins the groups it is put in, and would send group messages, on `interfaces` (`start` does so on the ones it
    /// advertises on): a device on a test's network joins there.
    public func useGroupInterfaces(_ interfaces: [String]) async {
        await node.useGroupInterfaces(interfaces)
    }

    /// Stops answering, withdraws the advertisements and closes the sockets.
    public func shutdown() async {
        isRunning = false
        timer.cancel()
        await node.shutdown()
    }

    // MARK: What tests and the console may look at

    public var fabrics: [Fabric] { get async { await node.model.node.fabrics } }
    public var isCommissioningWindowOpen: Bool { get async { await node.model.node.commissioningWindow != nil } }
    public var isFailSafeArmed: Bool { get async { await node.model.node.failSafe != nil } }

    /// The software version it runs.
    public var softwareVersion: UInt32 { get async { await node.model.node.identity.softwareVersion } }

    /// The events it recorded of `cluster`, oldest first (a test's look at StateTransition, VersionApplied).
    public func events(of cluster: UInt32) async -> [EventDataIB] {
        await node.model.node.events.filter { $0.path.cluster == cluster }
    }

    /// Whether it is on IP (a device fresh from its box is not until it joins the network it is given).
    public var isOnIP: Bool { get async { await node.onIP } }

    /// What it advertises over Bluetooth LE (Matter Core §5.4.2.5.6) while it is fresh from its box and its
    /// commissioning window is open: its discriminator, vendor and product; nil otherwise.
    public var bluetoothAdvertisement: MatterBLEAdvertisement? {
        get async {
            guard freshFromItsBox, let window = await node.model.node.commissioningWindow else { return nil }
            let identity = await node.model.node.identity
            return MatterBLEAdvertisement(
                discriminator: window.discriminator, vendorID: identity.vendorID, productID: identity.productID)
        }
    }
    /// The subscriptions it serves now, whoever holds them.
    public var subscriptionCount: Int { get async { await node.subscriptionCount } }
    /// Its Bluetooth LE side as a BLE proxy client that owns one peripheral, itself (`BLEProxyDial` connects it to
    /// the hub's `/ble`): its address derived from its unique ID, so it stays the same across restarts.
    public func bluetoothPeripheral(send: @escaping @Sendable (BLEProxyFrame) -> Void) -> BLEProxyPeripheral {
        let digits = Array(factory.identity.uniqueID.filter(\.isHexDigit).uppercased().prefix(10))
        let padded = digits + Array(repeating: Character("0"), count: max(0, 10 - digits.count))
        let address = (["02"] + stride(from: 0, to: 10, by: 2).map { String(padded[$0...$0 + 1]) })
            .joined(separator: ":")
        return BLEProxyPeripheral(
            address: address, transport: node.transport,
            advertisement: { [weak self] in await self?.bluetoothAdvertisement }, send: send, log: log)
    }

    /// The networks its radio was given (`radio`), and whether it joined each.
    public var networks: [(id: [UInt8], connected: Bool)] {
        get async { await rootCluster(NetworkCommissioningServer.self)?.networkList ?? [] }
    }

    /// Its root endpoint's cluster server of this type, as it is now.
    func rootCluster<Server: ClusterServer>(_: Server.Type) async -> Server? {
        await node.model.composition.first { $0.id == 0 }?.clusters.lazy.compactMap { $0 as? Server }.first
    }

    // MARK: Bridged devices

    /// The endpoints of the bridged devices, in order.
    public var bridgedEndpoints: [UInt16] { get async { await node.model.bridgedEndpoints } }

    /// A bridge adds a bridged On/Off Light called `label` (its NodeLabel, 1 to 32 bytes) on an endpoint ID it never
    /// used, and returns it; subscribers hear of the new endpoint and of the changed PartsLists. Kept across restarts.
    public func addBridgedDevice(label: String) async throws(DeviceError) -> UInt16 {
        guard !label.isEmpty, label.utf8.count <= DeviceConstants.nodeLabelLength else {
            throw .invalidSetting(
                "a bridged device's label is 1 to \(DeviceConstants.nodeLabelLength) bytes (NodeLabel), \"\(label)\" has \(label.utf8.count)"
            )
        }
        var changes = factory.bridge ?? BridgeChanges()
        guard let endpoint = changes.nextEndpoint(after: await node.model.endpoints) else {
            throw .bridging(
                "every endpoint ID up to \(NodeConstants.endpointIDs.upperBound) was used: no new bridged device can be added"
            )
        }
        let device = BridgedDevice(endpoint: endpoint, label: label)
        changes.added.append(device)
        try await change(bridge: changes) { model throws(DeviceError) in
            try model.addBridged(device.composed(bridgeUniqueID: model.node.identity.uniqueID))
        }
        log("[bridge] added \"\(label)\" on endpoint \(endpoint)")
        return endpoint
    }

    /// A bridge removes the bridged device on `endpoint`; its ID is retired, never to be used again. Subscribers hear
    /// of the changed PartsLists, and the endpoint answers no more.
    public func removeBridgedDevice(endpoint: UInt16) async throws(DeviceError) {
        var changes = factory.bridge ?? BridgeChanges()
        changes.added.removeAll { $0.endpoint == endpoint }
        changes.retired.append(endpoint)
        try await change(bridge: changes) { model throws(DeviceError) in try model.removeBridged(endpoint) }
        log("[bridge] removed endpoint \(endpoint)")
    }

    /// A person's action (`DeviceAction`) on `endpoint`, or on whichever endpoint has the control when nil; refused
    /// when none has it. Subscribers hear of it as of a simulation step's.
    public func perform(_ action: DeviceAction, on endpoint: UInt16?) async throws(DeviceError) {
        let performed = try? await node.update { model in model.perform(action, on: endpoint) }
        guard performed == true else {
            let control = action == .press ? "button" : "contact"
            throw .invalidSetting(
                endpoint.map { "endpoint \($0) has no \(control)" } ?? "this device has no \(control)")
        }
    }

    /// Changes the data model and stores the bridge's changes; when either fails, both stay as they were. Then
    /// subscribers hear of what changed.
    private func change(
        bridge changes: BridgeChanges, _ body: @escaping @Sendable (inout NodeDataModel) throws(DeviceError) -> Void
    ) async throws(DeviceError) {
        let stored = factory
        factory.bridge = changes
        do {
            try await node.update(persisting: true) { model in try body(&model) }
        } catch {
            factory = stored
            throw error as? DeviceError ?? .state(path: store.path, reason: "\(error)")
        }
    }

    // MARK: Simulation

    private func armTimer() {
        guard isRunning else { return timer.cancel() }
        let next = [nextSimulationStep, nextUpdateQuery, nextWake].compactMap { $0 }.min() ?? nextSimulationStep
        timer.arm(next, on: clock, preferring: EventLoopExecutor.preferred) { [weak self] deadline in
            await self?.timerFired(deadline)
        }
    }

    private func timerFired(_ deadline: Instant) async {
        guard timer.fired(deadline) else { return }
        let now = clock.now
        if now >= nextUpdateQuery {
            nextUpdateQuery = now + DeviceConstants.otaQueryInterval
            // In a task of its own: an update takes minutes, and the simulation goes on meanwhile.
            Task { [weak self] in await self?.queryDefaultProviders() }
        }
        if let wakes = nextWake, now >= wakes, let intermittent {
            nextWake = now + intermittent.activeMode + intermittent.idleMode
            await wake()
        }
        if now >= nextSimulationStep {
            let random = simulationRandom
            simulationRandom =
                (try? await node.update { model in
                    var random = random
                    model.simulate(random: &random)
                    return random
                }) ?? random
            nextSimulationStep = clock.now + simulationInterval
        }
        armTimer()
    }

    // MARK: State

    /// Writes what survives a restart: the fabrics as committed and the clusters' persistent values.
    private func save(_ snapshot: NodeSnapshot) async throws(DeviceError) {
        factory.fabrics = DeviceStateFile.stored(snapshot.fabrics)
        factory.clusters = snapshot.clusters.mapValues { Data($0) }
        factory.groupMessageCounter = snapshot.groupMessageCounter
        try await store.save(factory)
    }
}
