import MatterCrypto
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterPlatform
import MatterSecureChannel
import MatterTLV

/// The Matter node a process is (the hub, a virtual device, each device of a farm): it owns its transport and the sessions
/// it accepts, answers PASE while a commissioning window is open and CASE on every fabric it joined (with
/// resumption), serves its data model through the Interaction Model engine with access control, runs the
/// fail-safe, window and subscription timers, and, once told where (`advertise`), advertises itself by mDNS. What the node's
/// clusters do on their own (a device's simulation) is its owner's: it changes the data model through `update`.
public actor LocalNode {
    /// The UDP port the node answers on (IPv4; IPv6 is bound too).
    public nonisolated let port: UInt16
    public nonisolated let transport: MatterTransport

    private var server: InteractionServer<NodeDataModel>
    /// Where Check-In messages go (`handleCheckIns`); none: they are dropped.
    private var checkIns: (@Sendable ([UInt8], PeerAddress?) async -> Void)?
    private var sessions: [SessionHandle: AcceptedSession] = [:]
    /// What finished CASE sessions leave for resuming them (§4.14.2.2); in memory only, so a restarted node answers
    /// the next Sigma1 with the full Sigma2.
    private var resumptions = CASEResumptionTable()
    private let random: any RandomSource
    private let log: @Sendable (String) -> Void
    private let clock: any DriverClock
    /// The device type its commissionable advertisement names (§4.3.1.3 DT), when it has one to name.
    private let advertisedDeviceType: UInt32?
    private var responder: MulticastDNSResponder?
    private var advertised: Set<MatterAdvertisement> = []
    private let commissionableInstance: String
    private var following: Set<ExchangeHandle> = []
    private var incoming: Task<Void, Never>?
    /// The one timer of the node's own deadlines (fail-safe, window, subscription reports), armed for the earliest
    /// and re-armed after every step.
    private var timer = DeadlineTimer()
    private var isRunning = false
    /// Whether the node is on an IP network: a device fresh from its box is reachable over Bluetooth LE only, and
    /// neither advertises nor answers on IP until it joins the network it is given.
    private var isOnIP = true
    /// Set once the node was taken off IP: losing its network then takes it off again.
    private var reachesIPOnlyThroughItsNetwork = false
    /// Whether `start` has run (the transport's incoming exchanges have one reader).
    private var isStarted = false
    /// Writes what survives a restart; set by `start`.
    private var persist: @Sendable (NodeSnapshot) async throws -> Void = { _ in }
    /// The protocols registered besides the node's own (`register`).
    private var protocolHandlers: [ProtocolID: any ProtocolHandler] = [:]
    /// Takes the exchanges a peer opens on a session this process opened itself (as a controller, a subscription's
    /// reports); without one they are closed.
    private var openedSessionExchanges: (@Sendable (ExchangeHandle, ExchangeMessage) async -> Void)?
    /// Opens the group messages that arrive and drops the duplicates.
    private var groupReception = GroupReception()
    /// The write of often-changing values due within `NodeTiming.deferredPersistence` (`NodeEffect.persistSoon`).
    private var deferredPersist: Task<Void, Never>?
    /// Values changed since the last write, waiting for `deferredPersist` (or the shutdown's last write).
    private var unsavedValues = false
    /// Carries out what only the process around the node can (`NodeEffect.updateAnnounced`).
    private var applicationEffects: (@Sendable (NodeEffect) async -> Void)?
    /// The write of a new group message counter block, which senders wait for (`nextGroupCounter`).
    private var counterReservation: Task<Void, any Error>?

    /// A node serving `model` over `transport`, bound to `port`.
    public init(
        model: NodeDataModel, transport: MatterTransport, port: UInt16, advertisedDeviceType: UInt32? = nil,
        random: any RandomSource = SystemRandom(),
        clock: any DriverClock = SystemClock(), log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        server = InteractionServer(provider: model)
        self.transport = transport
        self.port = port
        self.advertisedDeviceType = advertisedDeviceType
        self.random = random
        self.clock = clock
        self.log = log
        commissionableInstance = random.bytes(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }
            .joined()
    }

    // MARK: Life cycle

    /// Starts answering (once: the transport's incoming exchanges are read by one node); `persist` writes what
    /// survives a restart whenever it changes. A node that is also a controller on its transport hands
    /// `openedSessionExchanges` what peers send on the sessions it opened.
    public func start(
        persist: @escaping @Sendable (NodeSnapshot) async throws -> Void,
        openedSessionExchanges: (@Sendable (ExchangeHandle, ExchangeMessage) async -> Void)? = nil
    ) async {
        // Set before the first await: a second caller arriving meanwhile finds the node started.
        guard !isStarted else { return }
        isStarted = true
        self.persist = persist
        self.openedSessionExchanges = openedSessionExchanges
        await transport.handleGroupMessages { [weak self] message, sender in
            Task(executorPreference: EventLoopExecutor.preferred) {
                await self?.receiveGroupMessage(message, from: sender)
            }
        }
        let exchanges = transport.incomingExchanges
        incoming = Task(executorPreference: EventLoopExecutor.preferred) {
            for await (exchange, message) in exchanges {
                await self.accept(exchange, message)
            }
        }
        isRunning = true
        armTimer()
    }

    /// Puts the node on IP, or takes it off: off, it drops what reaches its UDP sockets and advertises nothing; its
    /// Network Commissioning cluster puts it on once it joins a network (`NodeEffect.joinedNetwork`).
    public func setOnIP(_ onIP: Bool) async {
        isOnIP = onIP
        if !onIP { reachesIPOnlyThroughItsNetwork = true }
        await transport.setOnIP(onIP)
        await refreshAdvertisements()
    }

    /// The node sleeps between activity (Matter Core §9.16, an intermittently connected device): its radio listens
    /// only in active mode (`MatterTransport.sleepBetweenActivity`), and the subscriptions it serves report once an
    /// idle period, as it wakes, whatever their ceiling.
    public func sleepBetweenActivity(threshold: Duration, idleModeSeconds: UInt32) async {
        server.sleepyMaxInterval = UInt16(clamping: idleModeSeconds)
        await transport.sleepBetweenActivity(threshold: threshold)
    }

    /// Whether the node is on IP now.
    public var onIP: Bool { isOnIP }

    /// Advertises the node by mDNS on `interfaces` from now on (its commissioning window, its fabrics), once; with
    /// none it says that it does not.
    public func advertise(on interfaces: [String]) async throws(NodeError) {
        guard responder == nil else { return }
        guard !interfaces.isEmpty else {
            log("[mdns] no --interface given: not advertising (controllers must be given the address)")
            return
        }
        do {
            var generator = SystemRandomNumberGenerator()
            responder = try MulticastDNSResponder(
                interfaces: interfaces, hostName: ResponderHost.randomName(using: &generator), clock: clock)
        } catch {
            throw .network("mDNS on \(interfaces.joined(separator: ", ")): \(error)")
        }
        await refreshAdvertisements()
    }

    /// Stops answering, withdraws the advertisements and closes the sockets; values changed and not yet written are
    /// written last, once nothing can change them.
    public func shutdown() async {
        isRunning = false
        deferredPersist?.cancel()
        deferredPersist = nil
        incoming?.cancel()
        incoming = nil
        timer.cancel()
        if let responder { await responder.shutdown() }
        responder = nil
        advertised = []
        await transport.shutdown()
        if unsavedValues {
            unsavedValues = false
            await persistOrLog()
        }
    }

    /// Hands the exchanges peers open for `protocolID` on the sessions this node accepted to `handler`, from now on.
    /// The secure channel and the Interaction Model are the node's own, and one protocol has one handler.
    public func register(_ handler: any ProtocolHandler, for protocolID: ProtocolID) throws(NodeError) {
        guard protocolID != .secureChannel, protocolID != .interactionModel, protocolHandlers[protocolID] == nil else {
            throw .protocolTaken(protocolID)
        }
        protocolHandlers[protocolID] = handler
    }

    // MARK: The data model

    /// The data model as it is now.
    public var model: NodeDataModel { server.provider }
    /// The subscriptions it serves now, whoever holds them.
    public var subscriptionCount: Int { server.subscriptionIDs.count }

    /// What survives a restart: the fabrics as committed (not what an armed fail-safe may still undo) and the
    /// clusters' persistent values.
    public var snapshot: NodeSnapshot {
        let node = server.provider.node
        return NodeSnapshot(
            fabrics: node.failSafe?.fabricsBefore ?? node.fabrics, clusters: server.provider.persistentClusterState,
            groupMessageCounter: node.groupMessageCounter.reservedUntil)
    }

    /// Changes the data model as `body` says (a simulation step, a person's action), then settles: subscribers hear
    /// of what changed and the effects the clusters asked for are carried out. With `persisting`, what survives a
    /// restart is written first, and when that fails the data model is put back as it was and the error thrown.
    public func update<Result: Sendable>(
        persisting: Bool = false, _ body: @Sendable (inout NodeDataModel) throws -> Result
    ) async throws -> Result {
        let now = clock.now
        // Kept only to put back a change whose write failed: a simulation step, every few seconds on every device of a
        // farm, copies nothing.
        let before = persisting ? server.provider : nil
        server.provider.node.now = now
        let result = try body(&server.provider)
        if let before {
            do {
                try await persist(snapshot)
            } catch {
                server.provider = before
                throw error
            }
        }
        await settle([], now: now)
        return result
    }

    // MARK: Incoming exchanges

    /// Matter Core §4.10.5: an exchange a peer opens goes to the protocol its first message names, on a session this
    /// node accepted; PASE and CASE start on an unsecured one; the rest are on sessions this process opened.
    private func accept(_ exchange: ExchangeHandle, _ message: ExchangeMessage) async {
        guard let session = sessions[exchange.session] else {
            if message.protocolID == .secureChannel, Self.startsSession(message.opcode) {
                await establish(message, on: exchange)
            } else if message.protocolID == .secureChannel, message.opcode == SecureChannelOpcode.icdCheckIn.rawValue,
                await transport.isUnsecured(exchange.session)
            {
                let address = await transport.peerAddress(of: exchange.session)
                await transport.close(exchange)
                await transport.removeSession(exchange.session)
                if let checkIns { await checkIns(message.payload, address) }
            } else if let openedSessionExchanges {
                await openedSessionExchanges(exchange, message)
            } else {
                await transport.close(exchange)
            }
            return
        }
        if let handler = protocolHandlers[message.protocolID] {
            let peer = SessionPeer(isPASE: session.isPASE, fabricIndex: session.fabricIndex, nodeID: session.peerNodeID)
            let transport = transport
            Task(executorPreference: EventLoopExecutor.preferred) {
                await handler.accept(exchange, message, from: peer, over: transport)
            }
            return
        }
        switch message.protocolID {
        case .interactionModel:
            await interact(message, on: exchange)
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

    /// Matter Core §4.16: a group message is opened with the operational group key of a key set mapped to its group,
    /// and its invoke or write applies to the node's endpoints in that group, with the group's access (auth mode
    /// Group). Nothing is ever answered; what changed reaches subscribers as any change does.
    private func receiveGroupMessage(_ datagram: GroupDatagram, from sender: PeerAddress) async {
        let now = clock.now
        let described =
            "a message for group 0x\(hex(UInt64(datagram.groupID))) from node 0x\(hex(datagram.sourceNodeID))"
        let opened: GroupReception.Opened
        switch groupReception.open(datagram, fabrics: server.provider.node.fabrics) {
        case .success(let message): opened = message
        case .failure(.duplicate): return
        case .failure(let refusal): return log("[group] \(described) was dropped: \(refusal)")
        }
        let header = opened.message.protocolHeader
        guard header.protocolID == .interactionModel else {
            return log("[group] \(described) was dropped: protocol \(header.protocolID) is not the Interaction Model")
        }
        let endpoints = server.provider.node.fabric(opened.fabricIndex)?.groups.endpoints(in: opened.groupID) ?? []
        server.provider.node.now = now
        let outcome = server.handleGroupRequest(
            opcode: header.opcode, payload: opened.message.payload, endpoints: endpoints,
            context: AccessContext(
                fabricIndex: opened.fabricIndex, subject: UInt64(opened.groupID), authMode: .group),
            now: now)
        // Said for each command run, so that a device's own log shows a change came by group, not by unicast.
        for acted in outcome.acted {
            log("[group] \(described): \(acted) acted on")
        }
        for skipped in outcome.skipped {
            log("[group] \(described): \(skipped.path) skipped: \(skipped.status)")
        }
        await settle([], now: now)
    }

    /// Sends an Interaction Model request (an invoke or a write) to every member of `groupID` on the fabric at
    /// `fabricIndex`, sealed with the group's current key (§4.16, §4.17.3): one multicast message, unanswered.
    /// `utcMicroseconds` (since the Matter epoch) picks the epoch key in force; nil when the node has no time.
    public func send<Request: InteractionMessage>(
        _ request: Request, toGroup groupID: UInt16, fabricIndex: UInt8, utcMicroseconds: UInt64?
    ) async throws(NodeError) {
        guard let fabric = server.provider.node.fabric(fabricIndex) else { throw .unknownFabric(fabricIndex) }
        let sealing: (key: [UInt8], sessionID: UInt16)?
        do {
            sealing = try fabric.groups.sendingKey(
                groupID: groupID, compressedFabricID: try fabric.compressedFabricID(), now: utcMicroseconds)
        } catch {
            throw .invalidCredentials("group key of group 0x\(hex(UInt64(groupID))): \(error)")
        }
        guard let sealing else { throw .noGroupKey(groupID: groupID, fabricIndex: fabricIndex) }
        let counter = try await nextGroupCounter()
        let message = Message(
            header: MessageHeader(
                sessionID: sealing.sessionID, sessionType: .group, messageCounter: counter,
                sourceNodeID: fabric.nodeID, destination: .group(groupID)),
            protocolHeader: ProtocolHeader(
                isInitiator: true, needsAcknowledgement: false, opcode: Request.opcode.rawValue,
                exchangeID: UInt16(truncatingIfNeeded: random.bytes(2).reduce(0) { $0 << 8 | Int($1) }),
                protocolID: .interactionModel),
            payload: request.encoded())
        let datagram: [UInt8]
        do {
            datagram = try message.encrypted(key: sealing.key, nonceSourceNodeID: fabric.nodeID)
        } catch {
            throw .invalidCredentials("sealing a group message: \(error)")
        }
        do {
            try await transport.send(
                groupMessage: datagram, to: GroupPeer(fabricID: fabric.fabricID, groupID: groupID))
        } catch {
            throw .network("\(error)")
        }
    }

    /// The next group message counter. When its block is spent, the next block's end is stored before any counter of
    /// it goes out, and the senders that come meanwhile wait for that write: a restarted node resumes past every
    /// counter it sent. A write that fails leaves the counter as it was.
    private func nextGroupCounter() async throws(NodeError) -> UInt32 {
        while let pending = counterReservation { _ = try? await pending.value }
        let before = server.provider.node.groupMessageCounter
        let (counter, reserve) = server.provider.node.groupMessageCounter.take()
        guard reserve != nil else { return counter }
        let write = Task { [persist, snapshot] in try await persist(snapshot) }
        counterReservation = write
        defer { counterReservation = nil }
        do {
            try await write.value
        } catch {
            server.provider.node.groupMessageCounter = before
            throw .storage("the group message counter: \(error)")
        }
        return counter
    }

    /// Joins and sends to groups on `interfaces` from now on: the multicast addresses of the groups the node's
    /// endpoints are in, on every fabric. With none, the node neither hears nor sends group messages.
    public func useGroupInterfaces(_ interfaces: [String]) async {
        for (group, error) in await transport.useGroupInterfaces(interfaces) {
            log("[group] cannot join \(group): \(error)")
        }
        await joinGroups()
    }

    /// Joins exactly the groups the node's endpoints are in, on every fabric, that a key opens.
    private func joinGroups() async {
        var wanted: Set<GroupPeer> = []
        for fabric in server.provider.node.fabrics {
            for group in fabric.groups.groups where fabric.groups.hasKey(for: group.id) {
                wanted.insert(GroupPeer(fabricID: fabric.fabricID, groupID: group.id))
            }
        }
        for (group, error) in await transport.joinGroups(wanted) {
            log("[group] cannot join \(group): \(error)")
        }
    }

    private static func startsSession(_ opcode: UInt8) -> Bool {
        opcode == SecureChannelOpcode.pbkdfParamRequest.rawValue || opcode == SecureChannelOpcode.caseSigma1.rawValue
    }

    private func interact(_ message: ExchangeMessage, on exchange: ExchangeHandle) async {
        guard message.protocolID == .interactionModel, let session = sessions[exchange.session] else {
            await transport.close(exchange)
            return
        }
        let now = clock.now
        let node = server.provider.node
        sessions[exchange.session]?.lastActive = now
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
    /// asked (`NodeEffect`); keeps listening on `exchange` while the engine expects more on it.
    private func settle(_ actions: [ServerAction], now: Instant, following exchange: ExchangeHandle? = nil) async {
        var actions = actions
        let changed = server.provider.node.changedPaths
        server.provider.node.changedPaths = []
        if !changed.isEmpty { actions += server.attributesChanged(changed, now: now) }
        var effects = server.provider.node.effects
        server.provider.node.effects = []
        // What was acknowledged is on disk first: a crash after the response cannot lose it.
        if effects.contains(.persist) {
            // The snapshot written now holds the often-changing values too.
            effects.removeAll { $0 == .persist || $0 == .persistSoon }
            await persistOrLog()
        }
        // The console tells what the node did before its answer leaves: whoever got the answer finds the line there.
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
                    message = try await transport.receive(on: exchange, timeout: NodeTiming.exchangeIdle)
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

    /// The earliest moment the node has something of its own to do.
    private var nextDeadline: Instant? {
        let node = server.provider.node
        // A window that times out during commissioning waits for the fail-safe (see `tick`).
        let window = node.failSafe == nil ? node.commissioningWindow?.deadline : nil
        return [node.failSafe?.deadline, window, server.nextDeadline].compactMap { $0 }.min()
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
        let now = clock.now
        server.provider.node.now = now
        if let failSafe = server.provider.node.failSafe, now >= failSafe.deadline {
            server.provider.expireFailSafe()
        }
        // A window that times out during commissioning stays until the fail-safe ends, so the commissioner can finish.
        if let deadline = server.provider.node.commissioningWindow?.deadline, now >= deadline,
            server.provider.node.failSafe == nil
        {
            server.provider.node.closeCommissioningWindow()
            server.provider.node.effects.append(.log("[commissioning] window timed out"))
        }
        let due = server.nextDeadline.map { $0 <= now } ?? false
        await settle(due ? server.tick(now: now) : [], now: now)
    }

    // MARK: Effects

    private func apply(_ effects: [NodeEffect]) async {
        var needsSave = false, needsAdvertising = false, needsGroups = false, needsSaveSoon = false
        for effect in effects {
            switch effect {
            case .persist: needsSave = true
            case .persistSoon: needsSaveSoon = true
            case .advertise: needsAdvertising = true
            case .log: break  // written in `settle`, before the answer
            case .bindSession(let handle, let fabricIndex): sessions[handle]?.fabricIndex = fabricIndex
            case .closeSessions(let fabricIndex):
                for (handle, session) in sessions where session.fabricIndex == fabricIndex {
                    await removeSession(handle)
                }
                if server.provider.node.fabric(fabricIndex) == nil { groupReception.forget(fabricIndex: fabricIndex) }
                needsGroups = true
            case .groupsChanged: needsGroups = true
            case .closePASESessions:
                for (handle, session) in sessions where session.isPASE { await removeSession(handle) }
            case .joinedNetwork where !isOnIP:
                log("[network] on IP now")
                isOnIP = true
                await transport.setOnIP(true)
                needsAdvertising = true
            case .leftNetwork where isOnIP && reachesIPOnlyThroughItsNetwork:
                log("[network] off IP again: reachable over Bluetooth LE only")
                isOnIP = false
                await transport.setOnIP(false)
                needsAdvertising = true
            case .joinedNetwork, .leftNetwork: break
            case .updateAnnounced, .checkInClientRegistered:
                if let handler = applicationEffects { Task { await handler(effect) } }
            case .stayActive(let milliseconds):
                await transport.wake(for: .milliseconds(Int64(milliseconds)))
            }
        }
        if needsSave { await persistOrLog() }
        if needsSaveSoon, !needsSave { deferPersist() }
        if needsAdvertising { await refreshAdvertisements() }
        if needsGroups { await joinGroups() }
    }

    private func removeSession(_ handle: SessionHandle) async {
        sessions[handle] = nil
        await transport.removeSession(handle)
    }

    /// Writes the snapshot within `NodeTiming.deferredPersistence`, once for every change until then; a node shutting
    /// down writes it last instead.
    private func deferPersist() {
        unsavedValues = true
        guard isRunning, deferredPersist == nil else { return }
        deferredPersist = Task(executorPreference: EventLoopExecutor.preferred) { [weak self, clock] in
            guard (try? await clock.sleep(for: NodeTiming.deferredPersistence)) != nil else { return }
            await self?.writeDeferred()
        }
    }

    private func writeDeferred() async {
        guard isRunning, deferredPersist != nil else { return }
        deferredPersist = nil
        guard unsavedValues else { return }
        unsavedValues = false
        await persistOrLog()
    }

    private func persistOrLog() async {
        // Whatever is written now holds every value changed so far.
        unsavedValues = false
        do {
            try await persist(snapshot)
        } catch {
            log("[state] \(error)")
        }
    }

    // MARK: Advertising

    /// `_matterc._udp` while a window is open, `_matter._tcp` per fabric (§4.3).
    private func refreshAdvertisements() async {
        guard let responder else { return }
        let node = server.provider.node
        var wanted: Set<MatterAdvertisement> = []
        if isOnIP, let window = node.commissioningWindow {
            wanted.insert(
                .commissionable(
                    CommissionableAdvertisement(
                        instanceName: commissionableInstance, port: port, longDiscriminator: window.discriminator,
                        commissioningMode: window.commissioningMode, vendorID: node.identity.vendorID,
                        productID: node.identity.productID, deviceType: advertisedDeviceType,
                        deviceName: node.identity.productName)))
        }
        for fabric in node.fabrics where isOnIP {
            guard let compressed = try? fabric.compressedFabricID() else { continue }
            let peer = OperationalPeerID(
                compressedFabricID: compressed.reduce(0) { $0 << 8 | UInt64($1) }, nodeID: fabric.nodeID)
            wanted.insert(.operational(OperationalAdvertisement(peerID: peer, port: port)))
        }
        for advertisement in advertised.subtracting(wanted) {
            do {
                try await responder.withdraw(advertisement)
                log("[mdns] withdrew \(advertisement.serviceInstanceName)")
            } catch {
                log("[mdns] cannot withdraw \(advertisement.serviceInstanceName): \(error)")
            }
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
        // Reserved on the transport, which every session of the process shares (the hub opens its own there too);
        // released unless the establishment ends with a session. The peer's unsecured session goes then too, a moment
        // later, so a refusal still reaches it: nothing of a failed establishment stays on the transport.
        let unsecured = exchange.session
        let reserved = try? await transport.reserveSessionID(in: SecureChannelLimits.sessionIDs, random: random)
        var established = false
        defer {
            if !established {
                Task { [transport, clock] in
                    if let reserved { await transport.releaseSessionID(reserved) }
                    try? await clock.sleep(for: NodeTiming.unsecuredSessionLinger)
                    await transport.removeSession(unsecured)
                }
            }
        }
        guard let localSessionID = reserved else {
            return await refuse(exchange, "session refused: every local session ID is in use")
        }
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
            established = await run(responder, first: first, on: exchange, isPASE: true, validator: nil)
        case .caseSigma1?:
            let credentials = node.fabrics.compactMap { try? $0.operationalCredentials() }
            let validator = FabricValidator(fabrics: node.fabrics)
            let responder = CASEResponder(
                fabrics: credentials, localSessionID: localSessionID, validator: validator, random: random,
                resumptions: resumptions)
            established = await run(responder, first: first, on: exchange, isPASE: false, validator: validator)
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

    /// Runs the establishment to its end; true when it ended with a session.
    private func run(
        _ responder: some SessionEstablishmentResponder, first: ExchangeMessage, on exchange: ExchangeHandle,
        isPASE: Bool, validator: FabricValidator?
    ) async -> Bool {
        var responder = responder
        let name = isPASE ? "PASE" : "CASE"
        var actions = responder.receive(opcode: first.opcode, payload: first.payload)
        while true {
            // The new session is in place before the message that completes it goes out: the peer's first request
            // on it, sent the moment that message arrives, finds it rather than waiting for a retransmission.
            for case .established(let established) in actions {
                if let record = established.resumption { resumptions.remember(record) }
                await addSession(
                    established, from: exchange.session, isPASE: isPASE,
                    fabricIndex: fabricIndex(of: established, validator))
            }
            for action in actions {
                switch action {
                case .send(let opcode, let payload):
                    try? await transport.send(
                        ExchangeMessage(protocolID: .secureChannel, opcode: opcode.rawValue, payload: payload),
                        on: exchange)
                case .established:
                    await transport.close(exchange)
                    return true
                case .failed(let error):
                    await transport.close(exchange)
                    log("[session] \(name) failed: \(error)")
                    return false
                }
            }
            guard let message = try? await transport.receive(on: exchange, timeout: NodeTiming.establishmentStep),
                message.protocolID == .secureChannel
            else {
                await transport.close(exchange)
                log("[session] \(name) abandoned by the peer")
                return false
            }
            actions = responder.receive(opcode: message.opcode, payload: message.payload)
        }
    }

    /// A full CASE learned the fabric from the initiator's NOC; a resumed one from the record it resumed.
    private func fabricIndex(of established: EstablishedSession, _ validator: FabricValidator?) -> UInt8 {
        if let accepted = validator?.acceptedFabricIndex { return accepted }
        guard let record = established.resumption else { return 0 }
        return server.provider.node.fabrics.first {
            $0.fabricID == record.fabricID && $0.rootPublicKey == record.rootPublicKey
        }?.index ?? 0
    }

    private func addSession(
        _ established: EstablishedSession, from unsecured: SessionHandle, isPASE: Bool, fabricIndex: UInt8
    ) async {
        guard let peer = await transport.peerAddress(of: unsecured) else {
            await transport.releaseSessionID(established.localSessionID)
            return
        }
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
            } else {
                await makeRoomForCASESession(on: fabricIndex)
            }
            sessions[handle] = AcceptedSession(
                isPASE: isPASE, fabricIndex: fabricIndex, peerNodeID: established.peerNodeID ?? 0,
                localSessionID: established.localSessionID, attestationChallenge: established.keys.attestationChallenge,
                lastActive: clock.now)
            log(
                isPASE
                    ? "[session] PASE from \(peer)"
                    : "[session] CASE\(established.isResumed ? " (resumed)" : "") from node 0x\(hex(established.peerNodeID ?? 0)) on fabric \(fabricIndex) at \(peer)"
            )
        } catch {
            log("[session] cannot add the session: \(error)")
            await transport.releaseSessionID(established.localSessionID)
        }
        // The unsecured session stays a moment, so a retransmitted last message is still acknowledged.
        Task { [weak transport, clock] in
            try? await clock.sleep(for: NodeTiming.unsecuredSessionLinger)
            await transport?.removeSession(unsecured)
        }
    }

    /// Closes the fabric's least recently used CASE session (its subscriptions end with it) when it has as many as the
    /// node keeps (`NodeConstants.acceptedCASESessionsPerFabric`).
    private func makeRoomForCASESession(on fabricIndex: UInt8) async {
        let onFabric = sessions.filter { !$0.value.isPASE && $0.value.fabricIndex == fabricIndex }
        guard onFabric.count >= NodeConstants.acceptedCASESessionsPerFabric,
            let oldest = onFabric.min(by: { $0.value.lastActive < $1.value.lastActive })?.key
        else { return }
        log("[session] fabric \(fabricIndex) has \(onFabric.count) CASE sessions: the least recently used makes room")
        _ = await perform(server.sessionClosed(oldest))
        await removeSession(oldest)
    }

    /// How many secure sessions the node holds now.
    public var acceptedSessionCount: Int { sessions.count }

    /// Hands `handler` the effects only the process around the node can carry out, each in a task of its own (an
    /// update may take minutes; the node answers meanwhile).
    public func handleApplicationEffects(_ handler: @escaping @Sendable (NodeEffect) async -> Void) {
        applicationEffects = handler
    }

    /// Where `nodeID` of fabric `fabricIndex` reached this node last, over a CASE session it opened (a provider that
    /// announced itself is found there).
    /// Whether node `nodeID` of fabric `fabricIndex` holds a subscription this node serves.
    public func isSubscribed(byNode nodeID: UInt64, fabricIndex: UInt8) -> Bool {
        server.isSubscribed(fabricIndex: fabricIndex, subject: nodeID)
    }

    /// Matter Core §4.20.2: sends a Check-In message's `payload` to `address`, unsecured and unacknowledged (a
    /// check-in that is lost is made up for by the next one).
    public func sendCheckIn(_ payload: [UInt8], to address: PeerAddress) async throws(NodeError) {
        let session = await transport.openUnsecuredSession(to: address)
        defer { Task { [transport] in await transport.removeSession(session) } }
        do {
            let exchange = try await transport.openExchange(on: session)
            try await transport.send(
                ExchangeMessage(
                    protocolID: .secureChannel, opcode: SecureChannelOpcode.icdCheckIn.rawValue, payload: payload),
                on: exchange, reliably: false)
            await transport.close(exchange)
        } catch {
            throw .network("the check-in could not be sent to \(address): \(error)")
        }
    }

    /// Hands every Check-In message that arrives from now on (Matter Core §4.20.2, unsecured) to `handler`, with
    /// the address it came from: the node's ICD client (the hub) opens it with the keys it registered.
    public func handleCheckIns(_ handler: @escaping @Sendable ([UInt8], PeerAddress?) async -> Void) {
        checkIns = handler
    }

    public func peerAddress(ofNode nodeID: UInt64, fabricIndex: UInt8) async -> PeerAddress? {
        let latest = sessions.filter {
            !$0.value.isPASE && $0.value.peerNodeID == nodeID && $0.value.fabricIndex == fabricIndex
        }
        .max { $0.value.lastActive < $1.value.lastActive }
        guard let latest else { return nil }
        return await transport.peerAddress(of: latest.key)
    }

    /// Ends every session it accepted, as a reboot does: its peers find it again over CASE.
    public func closeAcceptedSessions() async {
        for handle in Array(sessions.keys) { await removeSession(handle) }
    }
}

/// What survives a node's restart.
public struct NodeSnapshot: Sendable {
    /// The fabrics as committed: an armed fail-safe's changes are not among them until it is disarmed.
    public let fabrics: [Fabric]
    /// Every cluster's persistent values, keyed "endpoint/cluster".
    public let clusters: [String: [UInt8]]
    /// Where the group message counter resumes after a restart (`GroupMessageCounter`).
    public let groupMessageCounter: UInt32
}
