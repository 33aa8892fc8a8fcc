import Foundation
import MatterCrypto
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterOnboarding
import MatterPlatform
import MatterSecureChannel
import MatterTLV

/// A commissionable Matter device over IP: it answers PASE while a commissioning window is open and CASE on every
/// fabric it joined, serves its data model through the Interaction Model engine with access control, runs the
/// fail-safe and subscription timers, keeps its state in its store and, given interfaces, advertises by mDNS.
public actor VirtualDevice {
    /// The onboarding payload of the initial window (QR code and manual code).
    public nonisolated let setupPayload: SetupPayload
    /// The UDP port the device answers on (IPv4; IPv6 is bound too, on the same port unless it was ephemeral).
    public nonisolated let port: UInt16
    public nonisolated let attestation: DevelopmentAttestation
    public nonisolated let kind: DeviceKind

    private let transport: MatterTransport
    private var server: InteractionServer<DeviceDataModel>
    private var sessions: [SessionHandle: DeviceSession] = [:]
    /// What finished CASE sessions leave for resuming them (§4.14.2.2); in memory only, so a restarted device
    /// answers the next Sigma1 with the full Sigma2.
    private var resumptions = CASEResumptionTable()
    private let store: DeviceStore
    private var factory: DeviceStateFile
    private let random: any RandomSource
    private let log: @Sendable (String) -> Void
    private let clock: any DriverClock
    private let interfaces: [String]
    private var responder: MulticastDNSResponder?
    private var advertised: Set<MatterAdvertisement> = []
    private let commissionableInstance: String
    private var following: Set<ExchangeHandle> = []
    private var loops: [Task<Void, Never>] = []
    /// The one timer of the device's own behaviour (fail-safe, window, simulation, subscription reports), armed
    /// for the earliest of their deadlines and re-armed after every step.
    private var timer = DeadlineTimer()
    private var isRunning = false
    private let simulationInterval: Duration
    private var nextSimulationStep: Instant

    /// A device from its stored state (`DeviceStore.loadOrCreate`), answering on `port` (0: ephemeral, for tests),
    /// or on the given bound `sockets` (tests that impair the network). With no `interfaces` it does not advertise.
    /// `simulation` sets how its sensors and buttons act on their own.
    public init(
        store: DeviceStore, state: DeviceStateFile, port: UInt16 = 5540,
        sockets: (ipv4: any DatagramSocket, ipv6: any DatagramSocket)? = nil, interfaces: [String] = [],
        random: any RandomSource = SystemRandom(), simulation: Simulation = Simulation(),
        clock: any DriverClock = SystemClock(), log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(DeviceError) {
        guard let kind = DeviceKind(rawValue: state.kind) else {
            throw .state(
                path: store.path,
                reason:
                    "unknown device type \"\(state.kind)\" (known: \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        let verifier: Spake2PlusVerifierData
        do {
            verifier = try Spake2PlusVerifierData(serialized: Array(state.verifier))
        } catch {
            throw .state(path: store.path, reason: "the passcode verifier is malformed: \(error)")
        }
        do {
            transport =
                if let sockets {
                    MatterTransport(ipv4: sockets.ipv4, ipv6: sockets.ipv6, random: random, clock: clock)
                } else {
                    try MatterTransport(port: port, random: random, clock: clock)
                }
            self.port = try transport.localPorts().ipv4
        } catch {
            throw .network("cannot bind UDP port \(port): \(error)")
        }
        var factory = state
        factory.rebootCount &+= 1
        self.factory = factory
        self.kind = kind
        self.store = store
        self.random = random
        self.log = log
        self.interfaces = interfaces
        self.clock = clock
        simulationInterval = simulation.interval
        nextSimulationStep = clock.now + simulation.interval
        attestation = state.attestation
        setupPayload = SetupPayload(
            vendorID: state.identity.vendorID, productID: state.identity.productID, discoveryCapabilities: .onNetwork,
            discriminator: .long(state.discriminator), passcode: state.passcode)
        commissionableInstance = random.bytes(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }
            .joined()
        let onboarding = CommissioningWindow(
            kind: .initial, verifier: verifier, iterations: state.iterations, salt: Array(state.salt),
            discriminator: state.discriminator, deadline: nil)
        let node = NodeState(
            identity: state.identity, attestation: state.attestation, onboardingWindow: onboarding,
            fabrics: try state.restoredFabrics(), random: random)
        let endpoints = (state.bridge ?? BridgeChanges()).applied(
            to: kind.applicationEndpoints(), bridgeUniqueID: state.identity.uniqueID)
        var model = DeviceDataModel(
            node: node,
            root: .rootNode(
                interfaces: HostNetworkInterface.current(), rebootCount: factory.rebootCount, bootTime: .zero),
            applicationEndpoints: endpoints, seed: simulation.seed)
        model.restoreClusterState(state.clusters.mapValues(Array.init))
        // §11.1.6.1 StartUp: the first event of every boot, with the software version.
        model.record(
            EventPathIB(
                endpoint: 0, cluster: BasicInformationCluster.id.rawValue,
                event: BasicInformationCluster.Events.StartUp.id.rawValue),
            priority: .critical,
            data: TLVElement(
                .structure([TLVElement(tag: .context(0), .unsigned(UInt64(state.identity.softwareVersion)))])))
        server = InteractionServer(provider: model)
    }

    // MARK: Life cycle

    /// Saves the new boot count, starts answering and advertising.
    public func start() async throws(DeviceError) {
        try await save()
        if interfaces.isEmpty {
            log("[mdns] no --interface given: not advertising (controllers must be given the address)")
        } else {
            do {
                var generator = SystemRandomNumberGenerator()
                responder = try MulticastDNSResponder(
                    interfaces: interfaces, hostName: ResponderHost.randomName(using: &generator), clock: clock)
            } catch {
                throw .network("mDNS on \(interfaces.joined(separator: ", ")): \(error)")
            }
        }
        await refreshAdvertisements()
        let incoming = transport.incomingExchanges
        loops.append(
            Task(executorPreference: EventLoopExecutor.preferred) {
                for await (exchange, message) in incoming {
                    await self.accept(exchange, message)
                }
            })
        isRunning = true
        armTimer()
    }

    /// Stops answering, withdraws the advertisements and closes the sockets.
    public func shutdown() async {
        for loop in loops { loop.cancel() }
        loops = []
        isRunning = false
        timer.cancel()
        if let responder { await responder.shutdown() }
        responder = nil
        advertised = []
        await transport.shutdown()
    }

    // MARK: What tests and the console may look at

    public var fabrics: [Fabric] { server.provider.node.fabrics }
    public var isCommissioningWindowOpen: Bool { server.provider.node.commissioningWindow != nil }
    public var isFailSafeArmed: Bool { server.provider.node.failSafe != nil }
    /// The subscriptions it serves now, whoever holds them.
    public var subscriptionCount: Int { server.subscriptionIDs.count }

    // MARK: Bridged devices

    /// The endpoints of the bridged devices, in order.
    public var bridgedEndpoints: [UInt16] { server.provider.bridgedEndpoints }

    /// A bridge adds a bridged On/Off Light called `label` (its NodeLabel, 1 to 32 bytes) on an endpoint ID it never
    /// used, and returns it; subscribers hear of the new endpoint and of the changed PartsLists. Kept across restarts.
    public func addBridgedDevice(label: String) async throws(DeviceError) -> UInt16 {
        guard !label.isEmpty, label.utf8.count <= DeviceConstants.nodeLabelLength else {
            throw .invalidSetting(
                "a bridged device's label is 1 to \(DeviceConstants.nodeLabelLength) bytes (NodeLabel), \"\(label)\" has \(label.utf8.count)"
            )
        }
        var changes = factory.bridge ?? BridgeChanges()
        guard let endpoint = changes.nextEndpoint(after: server.provider.endpoints) else {
            throw .bridging(
                "every endpoint ID up to \(DeviceConstants.endpointIDs.upperBound) was used: no new bridged device can be added"
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
        let now = now()
        server.provider.node.now = now
        guard server.provider.perform(action, on: endpoint) else {
            let control = action == .press ? "button" : "contact"
            throw .invalidSetting(
                endpoint.map { "endpoint \($0) has no \(control)" } ?? "this device has no \(control)")
        }
        await settle([], now: now)
    }

    /// Changes the data model and stores the bridge's changes; when either fails, both stay as they were. Then
    /// subscribers hear of what changed.
    private func change(
        bridge changes: BridgeChanges, _ body: (inout DeviceDataModel) throws(DeviceError) -> Void
    ) async throws(DeviceError) {
        let (model, stored) = (server.provider, factory)
        do {
            try body(&server.provider)
            factory.bridge = changes
            try await save()
        } catch {
            (server.provider, factory) = (model, stored)
            throw error
        }
        let now = now()
        server.provider.node.now = now
        await settle([], now: now)
    }

    // MARK: Incoming exchanges

    private func accept(_ exchange: ExchangeHandle, _ message: ExchangeMessage) async {
        switch message.protocolID {
        case .interactionModel:
            await interact(message, on: exchange)
        case .secureChannel where sessions[exchange.session] == nil:
            await establish(message, on: exchange)
        case .secureChannel where message.opcode == SecureChannelOpcode.statusReport.rawValue:
            // Matter Core §4.11.1.4: the peer closed the session; its subscriptions end with it.
            await transport.close(exchange)
            if let report = try? StatusReport.decode(message.payload),
                report.protocolID == 0, report.protocolCode == SecureChannelStatusCode.closeSession.rawValue
            {
                log("[session] closed by the peer")
                _ = await perform(server.sessionClosed(exchange.session))
                await removeSession(exchange.session)
            }
        default:
            // Other secure-channel messages on a secure session and other protocols need no answer here.
            await transport.close(exchange)
        }
    }

    private func interact(_ message: ExchangeMessage, on exchange: ExchangeHandle) async {
        guard message.protocolID == .interactionModel, let session = sessions[exchange.session] else {
            await transport.close(exchange)
            return
        }
        let now = now()
        let node = server.provider.node
        server.provider.node.now = now
        server.provider.node.session = RequestSession(
            handle: exchange.session, attestationChallenge: session.attestationChallenge,
            isPASE: session.isPASE)
        let context = session.accessContext(commissioning: node.commissioningWindow != nil || node.failSafe != nil)
        let actions = server.handle(
            opcode: message.opcode, payload: message.payload, on: exchange, context: context, now: now)
        server.provider.node.session = nil
        await settle(actions, now: now, following: exchange)
    }

    /// Carries out the engine's actions, reports changed attributes to subscribers, then does what the data model
    /// asked (`DeviceEffect`); keeps listening on `exchange` while the engine expects more on it.
    private func settle(_ actions: [ServerAction], now: Instant, following exchange: ExchangeHandle? = nil) async {
        var actions = actions
        let changed = server.provider.node.changedPaths
        server.provider.node.changedPaths = []
        if !changed.isEmpty { actions += server.attributesChanged(changed, now: now) }
        var effects = server.provider.node.effects
        server.provider.node.effects = []
        // What was acknowledged is on disk first: a crash after the response cannot lose it.
        if effects.contains(.persist) {
            effects.removeAll { $0 == .persist }
            await saveOrLog()
        }
        // The console tells what the device did before its answer leaves: whoever got the answer finds the line there.
        for case .log(let line) in effects { log(line) }
        let closed = await perform(actions)
        if let exchange, !closed.contains(exchange) { follow(exchange) }
        await apply(effects)
        armTimer()
    }

    /// Returns the exchanges it closed.
    private func perform(_ actions: [ServerAction]) async -> Set<ExchangeHandle> {
        let closing = Set(
            actions.compactMap { action -> ExchangeHandle? in
                if case .closeExchange(let exchange) = action { exchange } else { nil }
            })
        var more: [ServerAction] = []
        for action in actions {
            switch action {
            case .send(let opcode, let payload, let exchange):
                do {
                    try await transport.send(
                        ExchangeMessage(protocolID: .interactionModel, opcode: opcode.rawValue, payload: payload),
                        on: exchange)
                    if !closing.contains(exchange) { follow(exchange) }
                } catch {
                    server.exchangeFailed(exchange)
                }
            case .closeExchange(let exchange):
                await transport.close(exchange)
            case .openExchangeAndSend(let session, let opcode, let payload, let subscriptionID):
                do {
                    let exchange = try await transport.openExchange(on: session)
                    server.reportExchangeOpened(exchange, subscriptionID: subscriptionID)
                    try await transport.send(
                        ExchangeMessage(protocolID: .interactionModel, opcode: opcode.rawValue, payload: payload),
                        on: exchange)
                    follow(exchange)
                } catch {
                    more += server.cancelSubscription(subscriptionID)
                }
            }
        }
        if !more.isEmpty { return closing.union(await perform(more)) }
        return closing
    }

    /// Listens for the next messages of an exchange the engine is still part of, until it is closed or goes silent.
    private func follow(_ exchange: ExchangeHandle) {
        guard following.insert(exchange).inserted else { return }
        let transport = transport
        Task(executorPreference: EventLoopExecutor.preferred) {
            while true {
                let message: ExchangeMessage
                do {
                    message = try await transport.receive(on: exchange, timeout: DeviceTiming.exchangeIdle)
                } catch {
                    await self.exchangeEnded(exchange)
                    return
                }
                await self.interact(message, on: exchange)
            }
        }
    }

    private func exchangeEnded(_ exchange: ExchangeHandle) async {
        following.remove(exchange)
        server.exchangeFailed(exchange)
        await transport.close(exchange)
    }

    // MARK: Timers

    /// The earliest moment the device has something of its own to do.
    private var nextDeadline: Instant? {
        let node = server.provider.node
        // A window that times out during commissioning waits for the fail-safe (see `tick`).
        let window = node.failSafe == nil ? node.commissioningWindow?.deadline : nil
        return [node.failSafe?.deadline, window, nextSimulationStep, server.nextDeadline].compactMap { $0 }.min()
    }

    /// Arms the timer for `nextDeadline`, leaving one already set for it alone.
    private func armTimer() {
        guard isRunning, let deadline = nextDeadline else {
            timer.cancel()
            return
        }
        timer.arm(deadline, on: clock, preferring: EventLoopExecutor.preferred) { [weak self] deadline in
            await self?.timerFired(deadline)
        }
    }

    private func timerFired(_ deadline: Instant) async {
        guard timer.fired(deadline) else { return }
        await tick()
    }

    private func tick() async {
        let now = now()
        server.provider.node.now = now
        if let failSafe = server.provider.node.failSafe, now >= failSafe.deadline {
            server.provider.node.expireFailSafe()
        }
        // A window that times out during commissioning stays until the fail-safe ends, so the commissioner can finish.
        if let deadline = server.provider.node.commissioningWindow?.deadline, now >= deadline,
            server.provider.node.failSafe == nil
        {
            server.provider.node.closeCommissioningWindow()
            server.provider.node.effects.append(.log("[commissioning] window timed out"))
        }
        if now >= nextSimulationStep {
            server.provider.simulate()
            nextSimulationStep = now + simulationInterval
        }
        let due = server.nextDeadline.map { $0 <= now } ?? false
        await settle(due ? server.tick(now: now) : [], now: now)
    }

    private func now() -> Instant {
        clock.now
    }

    // MARK: Effects

    private func apply(_ effects: [DeviceEffect]) async {
        var needsSave = false, needsAdvertising = false
        for effect in effects {
            switch effect {
            case .persist: needsSave = true
            case .advertise: needsAdvertising = true
            case .log: break  // written in `settle`, before the answer
            case .bindSession(let handle, let fabricIndex): sessions[handle]?.fabricIndex = fabricIndex
            case .closeSessions(let fabricIndex):
                for (handle, session) in sessions where session.fabricIndex == fabricIndex {
                    await removeSession(handle)
                }
            case .closePASESessions:
                for (handle, session) in sessions where session.isPASE { await removeSession(handle) }
            }
        }
        if needsSave { await saveOrLog() }
        if needsAdvertising { await refreshAdvertisements() }
    }

    private func removeSession(_ handle: SessionHandle) async {
        sessions[handle] = nil
        await transport.removeSession(handle)
    }

    private func saveOrLog() async {
        do {
            try await save()
        } catch {
            log("[state] \(error)")
        }
    }

    /// Writes what survives a restart: the fabrics as committed (not what an armed fail-safe may still undo).
    private func save() async throws(DeviceError) {
        let node = server.provider.node
        factory.fabrics = DeviceStateFile.stored(node.failSafe?.fabricsBefore ?? node.fabrics)
        factory.clusters = server.provider.persistentClusterState.mapValues { Data($0) }
        try await store.save(factory)
    }

    // MARK: Advertising

    /// `_matterc._udp` while a window is open, `_matter._tcp` per fabric (§4.3).
    private func refreshAdvertisements() async {
        guard let responder else { return }
        let node = server.provider.node
        var wanted: Set<MatterAdvertisement> = []
        if let window = node.commissioningWindow {
            wanted.insert(
                .commissionable(
                    CommissionableAdvertisement(
                        instanceName: commissionableInstance, port: port, longDiscriminator: window.discriminator,
                        commissioningMode: window.commissioningMode, vendorID: node.identity.vendorID,
                        productID: node.identity.productID,
                        deviceType: kind.primaryDeviceType.id.rawValue, deviceName: node.identity.productName)))
        }
        for fabric in node.fabrics {
            guard let compressed = try? fabric.compressedFabricID() else { continue }
            let peer = OperationalPeerID(
                compressedFabricID: compressed.reduce(0) { $0 << 8 | UInt64($1) }, nodeID: fabric.nodeID)
            wanted.insert(.operational(OperationalAdvertisement(peerID: peer, port: port)))
        }
        for advertisement in advertised.subtracting(wanted) {
            try? await responder.withdraw(advertisement)
        }
        for advertisement in wanted.subtracting(advertised) {
            do {
                try await responder.advertise(advertisement)
                log("[mdns] advertising \(advertisement.serviceInstanceName)")
            } catch {
                log("[mdns] cannot advertise \(advertisement.serviceInstanceName): \(error)")
            }
        }
        advertised = wanted
    }

    // MARK: PASE and CASE

    private func establish(_ first: ExchangeMessage, on exchange: ExchangeHandle) async {
        let node = server.provider.node
        let localSessionID = newSessionID()
        switch SecureChannelOpcode(rawValue: first.opcode) {
        case .pbkdfParamRequest?:
            guard let window = node.commissioningWindow else {
                return await refuse(exchange, "PASE refused: no commissioning window is open")
            }
            // One commissioner at a time: a PASE session in use under an armed fail-safe keeps others out.
            guard node.failSafe == nil || !sessions.values.contains(where: \.isPASE) else {
                return await refuse(exchange, "PASE refused: another commissioner is at work")
            }
            let responder = PASEResponder(
                verifierData: window.verifier,
                pbkdfParameters: PBKDFParameters(iterations: window.iterations, salt: window.salt),
                localSessionID: localSessionID, random: random)
            await run(responder, first: first, on: exchange, isPASE: true, validator: nil)
        case .caseSigma1?:
            let credentials = node.fabrics.compactMap { try? $0.operationalCredentials() }
            let validator = DeviceFabricValidator(fabrics: node.fabrics)
            let responder = CASEResponder(
                fabrics: credentials, localSessionID: localSessionID, validator: validator, random: random,
                resumptions: resumptions)
            await run(responder, first: first, on: exchange, isPASE: false, validator: validator)
        default:
            await transport.close(exchange)
        }
    }

    private func refuse(_ exchange: ExchangeHandle, _ reason: String) async {
        log("[session] \(reason)")
        let busy = StatusReport(generalCode: .busy, secureChannelCode: .busy).encode()
        try? await transport.send(
            ExchangeMessage(
                protocolID: .secureChannel, opcode: SecureChannelOpcode.statusReport.rawValue, payload: busy),
            on: exchange)
        await transport.close(exchange)
    }

    private func run(
        _ responder: some SessionEstablishmentResponder, first: ExchangeMessage, on exchange: ExchangeHandle,
        isPASE: Bool,
        validator: DeviceFabricValidator?
    ) async {
        var responder = responder
        let name = isPASE ? "PASE" : "CASE"
        var actions = responder.receive(opcode: first.opcode, payload: first.payload)
        while true {
            for action in actions {
                switch action {
                case .send(let opcode, let payload):
                    try? await transport.send(
                        ExchangeMessage(protocolID: .secureChannel, opcode: opcode.rawValue, payload: payload),
                        on: exchange)
                case .established(let established):
                    await transport.close(exchange)
                    if let record = established.resumption { resumptions.remember(record) }
                    await addSession(
                        established, from: exchange.session, isPASE: isPASE,
                        fabricIndex: fabricIndex(of: established, validator))
                    return
                case .failed(let error):
                    await transport.close(exchange)
                    log("[session] \(name) failed: \(error)")
                    return
                }
            }
            guard let message = try? await transport.receive(on: exchange, timeout: DeviceTiming.establishmentStep),
                message.protocolID == .secureChannel
            else {
                await transport.close(exchange)
                log("[session] \(name) abandoned by the peer")
                return
            }
            actions = responder.receive(opcode: message.opcode, payload: message.payload)
        }
    }

    /// A full CASE learned the fabric from the initiator's NOC; a resumed one from the record it resumed.
    private func fabricIndex(of established: EstablishedSession, _ validator: DeviceFabricValidator?) -> UInt8 {
        if let accepted = validator?.acceptedFabricIndex { return accepted }
        guard let record = established.resumption else { return 0 }
        return server.provider.node.fabrics.first {
            $0.fabricID == record.fabricID && $0.rootPublicKey == record.rootPublicKey
        }?.index ?? 0
    }

    private func addSession(
        _ established: EstablishedSession, from unsecured: SessionHandle, isPASE: Bool, fabricIndex: UInt8
    ) async {
        guard let peer = await transport.peerAddress(of: unsecured) else { return }
        let parameters = SecureSessionParameters(
            localSessionID: established.localSessionID, peerSessionID: established.peerSessionID,
            encryptionKey: established.encryptionKey, decryptionKey: established.decryptionKey,
            localNonceNodeID: established.sendingNonceNodeID, peerNonceNodeID: established.receivingNonceNodeID)
        do {
            let handle = try await transport.addSecureSession(
                parameters, peer: peer, peerParameters: established.mrpParameters)
            if isPASE {
                // One PASE session at a time: a new commissioner replaces one that left without finishing.
                for (old, session) in sessions where session.isPASE { await removeSession(old) }
            }
            sessions[handle] = DeviceSession(
                isPASE: isPASE, fabricIndex: fabricIndex, peerNodeID: established.peerNodeID ?? 0,
                localSessionID: established.localSessionID, attestationChallenge: established.keys.attestationChallenge)
            log(
                isPASE
                    ? "[session] PASE from \(peer)"
                    : "[session] CASE\(established.isResumed ? " (resumed)" : "") from node 0x\(hex(established.peerNodeID ?? 0)) on fabric \(fabricIndex) at \(peer)"
            )
        } catch {
            log("[session] cannot add the session: \(error)")
        }
        // The unsecured session stays a moment, so a retransmitted last message is still acknowledged.
        Task { [weak transport] in
            try? await clock.sleep(for: DeviceTiming.unsecuredSessionLinger)
            await transport?.removeSession(unsecured)
        }
    }

    /// A session ID no session of this device uses (§4.13.2.1).
    private func newSessionID() -> UInt16 {
        let range = SecureChannelLimits.sessionIDs
        let used = Set(sessions.values.map(\.localSessionID))
        var candidate =
            range.lowerBound + random.bytes(2).reduce(UInt16(0)) { $0 << 8 | UInt16($1) }
            % (range.upperBound - range.lowerBound + 1)
        // Fewer sessions than IDs, so stepping past used ones ends.
        while used.contains(candidate) {
            candidate = candidate == range.upperBound ? range.lowerBound : candidate + 1
        }
        return candidate
    }
}
