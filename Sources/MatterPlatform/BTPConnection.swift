import MatterBTP
import MatterTime

/// A Bluetooth LE connection carrying BTP for a transport (Matter Core §4.19): what the transport sends to
/// `.bluetooth(connection)` goes out in BTP packets through `gatt` (the central's writes to C1, the peripheral's
/// indications on C2), the packets the link brings come back to the transport as whole messages, and the BTP timers
/// run on the transport's clock. A BTP failure ends the connection: the transport drops its sessions, and `closed`
/// hears why, so the backend disconnects. The BLE backend (BlueZ, a Home Assistant proxy, a simulated link) feeds it
/// the packets it receives, in order, and the confirmation of each packet it sent.
public actor BTPConnection {
    public nonisolated let connection: BluetoothConnection
    private let transport: MatterTransport
    private let gatt: @Sendable ([UInt8]) -> Void
    private let closed: @Sendable (BTPError) -> Void
    /// The peripheral's session exists once the central's request came; the central's from the start.
    private var session: BTPSession?
    private let maximumSegmentSize: Int?
    private var timer = DeadlineTimer()
    private var isClosed = false
    /// The transport's messages, in the order it sent them, and the peer's, in the order BTP delivered them.
    private let outgoing: AsyncStream<[UInt8]>.Continuation
    private let incoming: AsyncStream<[UInt8]>.Continuation
    private var pumps: [Task<Void, Never>] = []
    /// Who waits for the handshake (`connected()`), and why the connection ended once it has.
    private var handshakeWaiters: [CheckedContinuation<Void, any Error>] = []
    private var endReason: BTPError?

    private init(
        _ connection: BluetoothConnection, transport: MatterTransport, maximumSegmentSize: Int?,
        gatt: @escaping @Sendable ([UInt8]) -> Void, closed: @escaping @Sendable (BTPError) -> Void
    ) {
        self.connection = connection
        self.transport = transport
        self.maximumSegmentSize = maximumSegmentSize
        self.gatt = gatt
        self.closed = closed
        (outgoingMessages, outgoing) = AsyncStream<[UInt8]>.makeStream()
        (incomingMessages, incoming) = AsyncStream<[UInt8]>.makeStream()
    }

    private let outgoingMessages: AsyncStream<[UInt8]>
    private let incomingMessages: AsyncStream<[UInt8]>

    /// The commissioner's side of a new connection: its capabilities request goes to `gatt` at once (then the backend
    /// subscribes to C2, whose first indication is the response). `attMTU` is the link's, 0 when not known.
    public static func central(
        _ connection: BluetoothConnection, attMTU: UInt16, transport: MatterTransport,
        gatt: @escaping @Sendable ([UInt8]) -> Void, closed: @escaping @Sendable (BTPError) -> Void
    ) async -> BTPConnection {
        let link = BTPConnection(
            connection, transport: transport, maximumSegmentSize: nil, gatt: gatt, closed: closed)
        await link.start()
        let (session, actions) = BTPSession.central(attMTU: attMTU, now: transport.clock.now)
        await link.begin(session, actions)
        return link
    }

    /// The device's side: the central's first write is its capabilities request. `maximumSegmentSize` is the most
    /// the device's BLE stack carries in one indication (nil: not known).
    public static func peripheral(
        _ connection: BluetoothConnection, maximumSegmentSize: Int?, transport: MatterTransport,
        gatt: @escaping @Sendable ([UInt8]) -> Void, closed: @escaping @Sendable (BTPError) -> Void
    ) async -> BTPConnection {
        let link = BTPConnection(
            connection, transport: transport, maximumSegmentSize: maximumSegmentSize, gatt: gatt, closed: closed)
        await link.start()
        return link
    }

    /// Attaches to the transport, and starts the two pumps that keep each direction's order.
    private func start() async {
        let outgoing = outgoing
        await transport.attach(connection) { message in outgoing.yield(message) }
        let (transport, connection, incomingMessages, outgoingMessages) = (
            transport, connection, incomingMessages, outgoingMessages
        )
        pumps = [
            Task { [weak self] in for await message in outgoingMessages { await self?.send(message) } },
            Task { for await message in incomingMessages { await transport.receive(message, from: connection) } },
        ]
    }

    private func begin(_ session: BTPSession, _ actions: [BTPSession.Action]) async {
        self.session = session
        await carryOut(actions)
    }

    /// Returns once the handshake is done (the segment size and window agreed); throws why the connection ended when
    /// it ends first (no response within BTP_CONN_RSP_TIMEOUT, a version the peer does not speak).
    public func connected() async throws {
        if session?.isConnected == true { return }
        if isClosed { throw endReason ?? BTPError.closed }
        try await withCheckedThrowingContinuation { handshakeWaiters.append($0) }
    }

    /// The segment size the handshake agreed, once it is done.
    public var segmentSize: Int? { session?.segmentSize }

    private func resumeHandshakeWaiters() {
        guard !handshakeWaiters.isEmpty else { return }
        let waiters = handshakeWaiters
        handshakeWaiters = []
        if isClosed {
            for waiter in waiters { waiter.resume(throwing: endReason ?? BTPError.closed) }
        } else if session?.isConnected == true {
            for waiter in waiters { waiter.resume() }
        } else {
            handshakeWaiters = waiters
        }
    }

    /// A packet the link brought from the peer.
    public func received(_ packet: [UInt8]) async {
        guard !isClosed else { return }
        let now = transport.clock.now
        guard var session else {
            // The peripheral's first packet: the capabilities request.
            do {
                let (session, actions) = try BTPSession.peripheral(
                    request: packet, maximumSegmentSize: maximumSegmentSize, now: now)
                await begin(session, actions)
            } catch {
                await end(error)
            }
            return
        }
        let actions = session.received(packet, now: now)
        self.session = session
        await carryOut(actions)
    }

    /// The link confirmed the last packet sent.
    public func packetConfirmed() async {
        guard !isClosed, var session else { return }
        let actions = session.packetConfirmed(now: transport.clock.now)
        self.session = session
        await carryOut(actions)
    }

    /// Why the connection ended, once it has (nil while it is open, and after this side closed it).
    public var ended: BTPError? { isClosed ? endReason ?? .closed : nil }

    /// The backend lost the BLE link under the connection (the peripheral or the proxy disconnected): the connection
    /// ends with that reason.
    public func lost(_ reason: String) async {
        await end(.linkLost(reason))
    }

    /// Ends the connection from this side (commissioning is done with it, or the backend disconnected): the transport
    /// drops its sessions, and `closed` hears `.closed`, so the backend lets the peripheral go.
    public func close() async {
        guard !isClosed else { return }
        await shutDown()
        closed(.closed)
    }

    private func shutDown() async {
        isClosed = true
        session?.close()
        timer.cancel()
        await transport.detach(connection)
        outgoing.finish()
        incoming.finish()
        resumeHandshakeWaiters()
    }

    private func send(_ message: [UInt8]) async {
        guard !isClosed, var session else { return }
        do {
            let actions = try session.send(message, now: transport.clock.now)
            self.session = session
            await carryOut(actions)
        } catch {
            await end(error)
        }
    }

    private func carryOut(_ actions: [BTPSession.Action]) async {
        for action in actions {
            switch action {
            case .send(let packet): gatt(packet)
            case .deliver(let message): incoming.yield(message)
            case .close(let reason):
                await end(reason)
                return
            }
        }
        resumeHandshakeWaiters()
        rearm()
    }

    private func end(_ reason: BTPError) async {
        guard !isClosed else { return }
        endReason = reason
        await shutDown()
        closed(reason)
    }

    private func rearm() {
        guard let deadline = session?.nextDeadline else { return timer.cancel() }
        timer.arm(deadline, on: transport.clock) { [weak self] deadline in await self?.timerFired(deadline) }
    }

    private func timerFired(_ deadline: Instant) async {
        guard timer.fired(deadline), !isClosed, var session else { return }
        let actions = session.handleTimer(now: transport.clock.now)
        self.session = session
        await carryOut(actions)
    }
}
