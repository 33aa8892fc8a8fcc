import MatterCrypto
import MatterDiscovery
import MatterMessaging

/// Carries a node's exchanges over its links: it owns the UDP sockets and the sans-IO `ExchangeManager`, takes
/// in the Bluetooth LE connections attached to it (`attach`), feeds the manager datagrams and time, and carries out
/// what it asks, sending each message on its peer's link (`PeerAddress`). One actor, so the protocol state has one
/// owner. It runs on the event loop's thread (`EventLoopExecutor`): a readable socket is drained right in the
/// loop's handler.
///
/// It never polls: it sleeps until a socket is readable (`SocketReadiness`) or the earliest deadline is due —
/// the manager's own (`ExchangeManager.nextDeadline`: MRP retransmissions, acknowledgements) or a waiting
/// receive's timeout — with one timer, re-armed after every step and cancelled when nothing is due.
public actor MatterTransport {
    private var manager: ExchangeManager<PeerAddress>
    private let ipv4: any DatagramSocket
    private let ipv6: any DatagramSocket
    /// The time of every timer and timeout of the transport, and of its users' (subscriptions' liveness).
    public nonisolated let clock: any DriverClock
    private var mailboxes: [ExchangeHandle: Mailbox] = [:]
    private var isShutDown = false
    private let incoming: AsyncStream<(ExchangeHandle, ExchangeMessage)>.Continuation
    /// Exchanges peers open with us (we are the responder).
    public nonisolated let incomingExchanges: AsyncStream<(ExchangeHandle, ExchangeMessage)>
    /// Whether UDP datagrams are taken: a device fresh from its box is on no IP network until it joins one, so until
    /// then what reaches its sockets is dropped, as it would never arrive.
    private var isOnIP = true
    /// An intermittently connected device's radio (`sleepBetweenActivity`); nil: always listening.
    private var sleepyRadio: SleepyRadio?

    /// Matter Core §9.16 (ICD Management, its operating modes): a sleepy device listens only in active mode, which lasts a while after it woke and
    /// is prolonged by every message it sends or hears (ActiveModeThreshold); what reaches it meanwhile is lost.
    /// Decided at each datagram from the clock, so no timer puts the radio to sleep.
    private struct SleepyRadio {
        let threshold: Duration
        var listeningUntil: Instant

        func isListening(at now: Instant) -> Bool { now < listeningUntil }

        mutating func prolong(to deadline: Instant) { listeningUntil = max(listeningUntil, deadline) }
    }
    /// Datagrams that were not Matter messages for us (malformed, unknown session): counted, not fatal.
    public private(set) var droppedDatagrams = 0
    /// Takes the group messages that arrive (§4.16), still sealed; without one they are dropped and counted.
    private var groupMessages: (@Sendable (GroupDatagram, PeerAddress) -> Void)?
    /// Where messages to each attached Bluetooth LE connection go: its BTP session, which segments them.
    private var bluetoothLinks: [BluetoothConnection: @Sendable ([UInt8]) -> Void] = [:]
    /// How the transport joins and sends to groups; nil where the network has no multicast.
    private let multicast: (any MulticastLink)?
    /// The groups joined (`joinGroups`): a socket each, which receives only that group's datagrams.
    private var groupSockets: [GroupPeer: (socket: any DatagramSocket, readiness: SocketReadiness)] = [:]
    /// The interfaces group messages go out of and groups are joined on, as the node's owner chose them.
    private var groupInterfaces: [String] = []

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<ExchangeMessage, any Error>
        let deadline: Instant
        let timeout: Duration
    }

    private struct Mailbox {
        var queue: [ExchangeMessage] = []
        var failure: ExchangeError?
        var waiter: Waiter?
    }

    private var nextWaiterID: UInt64 = 0
    private var readiness: [SocketReadiness] = []
    private var timer = DeadlineTimer()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { EventLoopExecutor.serial }

    /// Binds an IPv4 and an IPv6 socket; `port` 0 picks an ephemeral port for both (a controller, the hub), a device
    /// passes its own.
    public init(
        port: UInt16 = 0, random: some RandomSource = SystemRandom(), clock: any DriverClock = SystemClock()
    ) throws(SocketError) {
        let ipv4 = try UDPSocket(family: .ipv4)
        let ipv6 = try UDPSocket(family: .ipv6)
        if port == GroupPeer.port {
            // Every node of the host binds its groups' addresses on this port (`UDPMulticastLink`), which the
            // kernel allows beside a wildcard socket only when both ask for address reuse. This socket takes
            // unicast only: the groups are their own sockets'.
            try ipv6.allowAddressReuse()
            try ipv6.receiveOnlyJoinedGroups()
        }
        if port == 0 {
            let (ipv4, ipv6) = try Self.ephemeralPair()
            self.init(ipv4: ipv4, ipv6: ipv6, multicast: try UDPMulticastLink(), random: random, clock: clock)
            return
        }
        try ipv4.bind(to: .ipv4(IPv4Address(0), port: port))
        try ipv6.bind(to: .ipv6(IPv6Address(0, 0), port: port))
        self.init(ipv4: ipv4, ipv6: ipv6, multicast: try UDPMulticastLink(), random: random, clock: clock)
    }

    /// How often an ephemeral port is picked again when its IPv6 twin is taken.
    private static let ephemeralPairAttempts = 16

    /// An IPv4 and an IPv6 socket on one ephemeral port: a node advertises one port (DNS-SD's SRV record) beside both
    /// its addresses, so a peer that resolves it and takes the IPv6 address must find it there too. When every port
    /// tried is taken for IPv6, the IPv6 socket gets a port of its own.
    private static func ephemeralPair() throws(SocketError) -> (UDPSocket, UDPSocket) {
        for _ in 0..<ephemeralPairAttempts {
            let ipv4 = try UDPSocket(family: .ipv4)
            try ipv4.bind(to: .ipv4(IPv4Address(0), port: 0))
            let ipv6 = try UDPSocket(family: .ipv6)
            if (try? ipv6.bind(to: .ipv6(IPv6Address(0, 0), port: try ipv4.localAddress().port))) != nil {
                return (ipv4, ipv6)
            }
        }
        let ipv4 = try UDPSocket(family: .ipv4)
        try ipv4.bind(to: .ipv4(IPv4Address(0), port: 0))
        let ipv6 = try UDPSocket(family: .ipv6)
        try ipv6.bind(to: .ipv6(IPv6Address(0, 0), port: 0))
        return (ipv4, ipv6)
    }

    /// Runs over the given sockets (bound UDP sockets, or in tests a simulated network's) on `clock` (in tests, a
    /// `ManualClock`), joining and sending to groups through `multicast` when there is one.
    public init(
        ipv4: some DatagramSocket, ipv6: some DatagramSocket, multicast: (any MulticastLink)? = nil,
        random: some RandomSource = SystemRandom(), clock: any DriverClock = SystemClock()
    ) {
        self.ipv4 = ipv4
        self.ipv6 = ipv6
        self.multicast = multicast
        self.clock = clock
        manager = ExchangeManager(random: random)
        (incomingExchanges, incoming) = AsyncStream.makeStream()
        // The readiness sources hold the transport weakly, so releasing the transport ends them too.
        Task { [weak self] in await self?.watchSockets() }
    }

    deinit {
        for source in readiness { source.cancel() }
        timer.cancel()
    }

    /// The ports the sockets were given (ephemeral ones are known only after binding).
    public nonisolated func localPorts() throws(SocketError) -> (ipv4: UInt16, ipv6: UInt16) {
        (try ipv4.localAddress().port, try ipv6.localAddress().port)
    }

    /// Stops receiving; waiting calls fail.
    public func shutdown() {
        isShutDown = true
        for source in readiness { source.cancel() }
        readiness = []
        // The port is free when shutdown returns: a device started again in this process binds it at once.
        ipv4.releaseAddress()
        ipv6.releaseAddress()
        for (_, group) in groupSockets {
            group.readiness.cancel()
            group.socket.releaseAddress()
        }
        groupSockets = [:]
        timer.cancel()
        incoming.finish()
        for handle in Array(mailboxes.keys) { fail(handle, .unknownExchange(handle)) }
    }

    // MARK: Sessions and exchanges

    public func openUnsecuredSession(to peer: PeerAddress, peerParameters: MRPParameters = .default) -> SessionHandle {
        manager.openUnsecuredSession(to: peer, peerParameters: peerParameters)
    }

    public func addSecureSession(
        _ parameters: SecureSessionParameters, peer: PeerAddress,
        peerParameters: MRPParameters = .default
    ) throws(ExchangeError) -> SessionHandle {
        try manager.addSecureSession(parameters, peer: peer, peerParameters: peerParameters)
    }

    /// A local session ID for an establishment about to start, drawn at random in `range` and stepped past the ones
    /// in use or reserved (`ExchangeManager.reserveSessionID`); released when no session is added with it.
    public func reserveSessionID(
        in range: ClosedRange<UInt16>, random: any RandomSource
    ) throws(ExchangeError)
        -> UInt16
    {
        let drawn = random.bytes(2).reduce(0) { $0 << 8 | Int($1) }
        return try manager.reserveSessionID(
            in: range, startingAt: UInt16(Int(range.lowerBound) + drawn % range.count))
    }

    public func releaseSessionID(_ sessionID: UInt16) {
        manager.releaseSessionID(sessionID)
    }

    /// Where a session's peer is (a responder learns it from the peer's first datagram).
    public func peerAddress(of session: SessionHandle) -> PeerAddress? {
        manager.sessions[session]?.peerAddress
    }

    /// Whether a session is unsecured (Matter Core §4.13.1: PASE and CASE begin on one; a Check-In is sent on one).
    public func isUnsecured(_ session: SessionHandle) -> Bool {
        switch manager.sessions[session]?.kind {
        case .unsecuredInitiator?, .unsecuredResponder?: true
        case .secure?, nil: false
        }
    }

    /// Forgets the session and its exchanges: what waits on one fails at once, and nothing of them stays (the one
    /// transport of a process outlives every session on it).
    public func removeSession(_ session: SessionHandle) {
        manager.removeSession(session)
        for handle in Array(mailboxes.keys) where handle.session == session {
            fail(handle, .unknownSession(session))
            mailboxes[handle] = nil
        }
    }

    public func openExchange(on session: SessionHandle) throws(ExchangeError) -> ExchangeHandle {
        let handle = try manager.openExchange(on: session)
        mailboxes[handle] = Mailbox()
        return handle
    }

    public func send(
        _ message: ExchangeMessage, on exchange: ExchangeHandle, reliably: Bool = true
    ) throws(ExchangeError) {
        execute(try manager.send(message, on: exchange, reliably: reliably, now: now()))
    }

    /// The next message on `exchange`, waiting at most `timeout`; a cancelled task stops waiting at once
    /// (`CancellationError`), so a caller that gave up (a client gone, a connection stopped) holds nothing up.
    public func receive(on exchange: ExchangeHandle, timeout: Duration) async throws -> ExchangeMessage {
        nextWaiterID += 1
        let id = nextWaiterID
        return try await withTaskCancellationHandler {
            try await waitForMessage(on: exchange, timeout: timeout, waiter: id)
        } onCancel: {
            Task { await self.cancelWaiter(id, on: exchange) }
        }
    }

    private func waitForMessage(
        on exchange: ExchangeHandle, timeout: Duration, waiter id: UInt64
    ) async throws -> ExchangeMessage {
        // The mailbox is looked at inside the continuation's body: entering the body can be a hop to the actor's
        // executor (when the task's executor preference differs), and a message may be delivered meanwhile.
        try await withCheckedThrowingContinuation { continuation in
            guard var mailbox = mailboxes[exchange] else {
                continuation.resume(throwing: ExchangeError.unknownExchange(exchange))
                return
            }
            // Cancelled before it waited: the cancellation handler found no waiter to end.
            if Task.isCancelled {
                continuation.resume(throwing: CancellationError())
            } else if !mailbox.queue.isEmpty {
                let message = mailbox.queue.removeFirst()
                mailboxes[exchange] = mailbox
                continuation.resume(returning: message)
            } else if let failure = mailbox.failure {
                continuation.resume(throwing: failure)
            } else {
                mailbox.waiter = Waiter(
                    id: id, continuation: continuation, deadline: now().advanced(by: timeout), timeout: timeout)
                mailboxes[exchange] = mailbox
                armTimer()
            }
        }
    }

    /// Ends the wait `id` on `exchange` with `CancellationError`, if it is still the one waiting there.
    private func cancelWaiter(_ id: UInt64, on exchange: ExchangeHandle) {
        guard let waiter = mailboxes[exchange]?.waiter, waiter.id == id else { return }
        mailboxes[exchange]?.waiter = nil
        waiter.continuation.resume(throwing: CancellationError())
        armTimer()
    }

    /// Ends `exchange`, flushing a pending acknowledgement.
    public func close(_ exchange: ExchangeHandle) {
        execute(manager.close(exchange, now: now()))
        if let waiter = mailboxes.removeValue(forKey: exchange)?.waiter {
            waiter.continuation.resume(throwing: ExchangeError.unknownExchange(exchange))
        }
    }

    // MARK: Bluetooth LE links

    /// Carries messages to and from `connection` from now on: a message to `.bluetooth(connection)` goes to `send`
    /// (the connection's BTP session), and what the peer sends comes in through `receive(_:from:)`. Until a
    /// connection is attached, or once it is detached, a message to it is lost.
    public func attach(_ connection: BluetoothConnection, sending send: @escaping @Sendable ([UInt8]) -> Void) {
        bluetoothLinks[connection] = send
    }

    /// A whole message the connection's BTP session reassembled.
    public func receive(_ message: [UInt8], from connection: BluetoothConnection) {
        guard !isShutDown, bluetoothLinks[connection] != nil else { return }
        do {
            execute(try manager.receive(message, from: .bluetooth(connection), now: now()))
        } catch {
            droppedDatagrams += 1
        }
    }

    /// The connection closed: its sessions end, and what waits on their exchanges fails at once.
    public func detach(_ connection: BluetoothConnection) {
        bluetoothLinks[connection] = nil
        for (session, state) in manager.sessions where state.peerAddress == .bluetooth(connection) {
            removeSession(session)
        }
    }

    // MARK: Groups

    /// Sends group messages out of `interfaces` and joins groups on them from now on; the groups already joined are
    /// joined again there.
    public func useGroupInterfaces(_ interfaces: [String]) -> [GroupPeer: SocketError] {
        guard interfaces != groupInterfaces else { return [:] }
        groupInterfaces = interfaces
        let joined = Set(groupSockets.keys)
        _ = joinGroups([])
        return joinGroups(joined)
    }

    /// Receives the messages sent to exactly these groups from now on: a socket for each group not yet joined, and
    /// the sockets of groups no longer wanted closed. Returns the groups it could not join, and why; with no group
    /// interface chosen, none is joined.
    @discardableResult
    public func joinGroups(_ groups: Set<GroupPeer>) -> [GroupPeer: SocketError] {
        for (group, joined) in groupSockets where !groups.contains(group) {
            joined.readiness.cancel()
            joined.socket.releaseAddress()
            groupSockets[group] = nil
        }
        guard let multicast, !groupInterfaces.isEmpty, !isShutDown else { return [:] }
        var failures: [GroupPeer: SocketError] = [:]
        for group in groups where groupSockets[group] == nil {
            do {
                let socket = try multicast.join(group.address, interfaces: groupInterfaces)
                let readiness = SocketReadiness(descriptor: socket.readinessDescriptor) { [weak self] resume in
                    self?.assumeIsolated { $0.drain(socket) }
                    resume()
                }
                groupSockets[group] = (socket, readiness)
            } catch {
                failures[group] = error
            }
        }
        return failures
    }

    /// The groups whose messages this transport receives now.
    public var joinedGroups: Set<GroupPeer> { Set(groupSockets.keys) }

    /// Sends a sealed group message (the group messaging layer sealed it) to every member of `group`, out of each
    /// group interface.
    public func send(groupMessage datagram: [UInt8], to group: GroupPeer) throws(TransportError) {
        guard let multicast else { throw .noMulticast }
        guard !groupInterfaces.isEmpty else { throw .noGroupInterface(group) }
        for interface in groupInterfaces {
            do {
                try multicast.send(datagram, to: group.address, interface: interface)
            } catch {
                throw .groupSendFailed(group, interface: interface, error)
            }
        }
    }

    // MARK: The pump

    private func watchSockets() {
        guard !isShutDown else { return }
        readiness = [ipv6, ipv4].map { socket in
            SocketReadiness(descriptor: socket.readinessDescriptor) { [weak self] resume in
                self?.assumeIsolated { $0.drain(socket) }
                resume()
            }
        }
    }

    /// Takes UDP datagrams from now on, or drops them (the process's node is on no IP network).
    public func setOnIP(_ onIP: Bool) {
        isOnIP = onIP
    }

    /// From now on the radio sleeps except in active mode (an intermittently connected device): awake for
    /// `threshold` after each message sent or heard, and for as long as `wake(for:)` says.
    public func sleepBetweenActivity(threshold: Duration) {
        sleepyRadio = SleepyRadio(threshold: threshold, listeningUntil: now())
    }

    /// The device entered active mode: it listens for `duration` at least.
    public func wake(for duration: Duration) {
        sleepyRadio?.prolong(to: now() + duration)
    }

    /// Whether what reaches the device now is heard (always, unless it sleeps between activity).
    public var isListening: Bool { sleepyRadio?.isListening(at: now()) ?? true }

    /// Feeds every datagram waiting on `socket` to the exchange manager.
    private func drain(_ socket: any DatagramSocket) {
        guard !isShutDown else { return }
        while let (bytes, sender) = (try? socket.receive(timeout: .zero)) ?? nil {
            guard isOnIP, isListening else {
                droppedDatagrams += 1
                continue
            }
            if let radio = sleepyRadio { sleepyRadio?.prolong(to: now() + radio.threshold) }
            do {
                execute(try manager.receive(bytes, from: .udp(sender), now: now()))
            } catch {
                droppedDatagrams += 1
            }
        }
        armTimer()
    }

    /// The earliest of the manager's deadline and the waiting receives' timeouts.
    private var nextDeadline: Instant? {
        let waiting = mailboxes.values.compactMap { $0.waiter?.deadline }.min()
        switch (manager.nextDeadline, waiting) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b): return b
        }
    }

    /// Arms the timer for the next deadline, or cancels it when nothing is due; a timer already set for that
    /// deadline is left alone.
    private func armTimer() {
        guard !isShutDown, let deadline = nextDeadline else {
            timer.cancel()
            return
        }
        timer.arm(deadline, on: clock, preferring: EventLoopExecutor.preferred) { [weak self] deadline in
            await self?.timerFired(deadline)
        }
    }

    private func timerFired(_ deadline: Instant) {
        guard timer.fired(deadline) else { return }
        let now = now()
        if let due = manager.nextDeadline, due <= now {
            execute(manager.handleTimer(now: now))
        }
        for (handle, mailbox) in mailboxes {
            guard let waiter = mailbox.waiter, waiter.deadline <= now else { continue }
            mailboxes[handle]?.waiter = nil
            waiter.continuation.resume(throwing: TransportError.timedOut(handle, after: waiter.timeout))
        }
        armTimer()
    }

    /// Hands every group message that arrives from now on to `handler` (the group messaging layer, which holds the
    /// keys to open it), on the transport's executor.
    public func handleGroupMessages(_ handler: @escaping @Sendable (GroupDatagram, PeerAddress) -> Void) {
        groupMessages = handler
    }

    private func execute(_ actions: [ExchangeManager<PeerAddress>.Action]) {
        for action in actions {
            switch action {
            case .deliverGroupMessage(let message, let sender):
                if let groupMessages { groupMessages(message, sender) } else { droppedDatagrams += 1 }
            case .send(let datagram, .udp(let address)):
                // Sending wakes a sleepy device's radio: the answer must find it listening.
                if let radio = sleepyRadio { sleepyRadio?.prolong(to: now() + radio.threshold) }
                // A send that fails (no route) is a lost datagram: MRP retransmits, then fails the exchange.
                try? (address.isIPv4 ? ipv4 : ipv6).send(datagram, to: address)
            case .send(let message, .bluetooth(let connection)):
                bluetoothLinks[connection]?(message)
            case .send(let message, .group(let group)):
                // No session is ever opened to a group; a group message is sealed by the group layer and sent with
                // `send(groupMessage:to:)`, so this is a lost datagram, like a UDP send with no route.
                try? send(groupMessage: message, to: group)
            case .deliver(.newExchange(let handle, let message)):
                mailboxes[handle] = Mailbox()
                incoming.yield((handle, message))
            case .deliver(.message(let handle, let message)):
                deliver(message, to: handle)
            case .exchangeFailed(let handle, let error):
                fail(handle, error)
            }
        }
        armTimer()
    }

    private func deliver(_ message: ExchangeMessage, to handle: ExchangeHandle) {
        guard var mailbox = mailboxes[handle] else { return }
        if let waiter = mailbox.waiter {
            mailbox.waiter = nil
            mailboxes[handle] = mailbox
            waiter.continuation.resume(returning: message)
        } else {
            mailbox.queue.append(message)
            mailboxes[handle] = mailbox
        }
    }

    private func fail(_ handle: ExchangeHandle, _ error: ExchangeError) {
        guard var mailbox = mailboxes[handle] else { return }
        mailbox.failure = error
        if let waiter = mailbox.waiter {
            mailbox.waiter = nil
            waiter.continuation.resume(throwing: error)
        }
        mailboxes[handle] = mailbox
    }

    private func now() -> Instant {
        clock.now
    }
}

public enum TransportError: Error, Sendable, CustomStringConvertible {
    case timedOut(ExchangeHandle, after: Duration)
    /// The transport runs on a network without multicast (a test's that offers none).
    case noMulticast
    /// Nobody chose the interfaces group messages go out of (`useGroupInterfaces`).
    case noGroupInterface(GroupPeer)
    case groupSendFailed(GroupPeer, interface: String, SocketError)

    public var description: String {
        switch self {
        case .timedOut(let exchange, let timeout): "no answer on \(exchange) within \(timeout)"
        case .noMulticast: "this transport's network has no multicast"
        case .noGroupInterface(let group):
            "no network interface is chosen for group messages, so nothing can be sent to \(group)"
        case .groupSendFailed(let group, let interface, let error): "sending to \(group) on \(interface): \(error)"
        }
    }
}

extension SocketAddress {
    var isIPv4: Bool {
        if case .ipv4 = self { return true }
        return false
    }
}
