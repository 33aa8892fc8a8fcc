import MatterInteraction
import MatterMessaging
import MatterPlatform
import Synchronization

/// Hands each exchange a device opens on a transport (a subscription report) to the `InteractionClient` of its
/// session. A transport's `incomingExchanges` can be consumed only once, so every client of one transport shares
/// one router: the live connections to many nodes run over one transport. The router consumes them itself, or, on
/// the transport of a `LocalNode`, is handed by the node the exchanges on sessions the node did not accept
/// (`deliver`). A session's exchanges wait in a `SerialInbox`, so a client that is waiting for its next report
/// holds no task.
public final class InteractionRouter: Sendable {
    public typealias IncomingExchange = (ExchangeHandle, ExchangeMessage)

    private struct State {
        var inboxes: [SessionHandle: (registration: UInt64, inbox: SerialInbox<IncomingExchange>)] = [:]
        var lastRegistration: UInt64 = 0
        var pump: Task<Void, Never>?
    }

    public let transport: MatterTransport
    /// Whether a node hands it its exchanges (`deliver`) rather than it reading the transport's.
    private let isFedByNode: Bool
    private let state = Mutex(State())

    /// A router reading `transport`'s incoming exchanges itself once a client routes, unless `fedByNode`.
    public init(transport: MatterTransport, fedByNode: Bool = false) {
        self.transport = transport
        isFedByNode = fedByNode
    }

    /// Hands an exchange a peer opened to the client of its session, or refuses it when no client takes it.
    public func deliver(_ exchange: ExchangeHandle, _ message: ExchangeMessage) async {
        if let inbox = state.withLock({ $0.inboxes[exchange.session]?.inbox }) {
            inbox.deliver((exchange, message))
        } else {
            await Self.refuse(message, on: exchange, over: transport)
        }
    }

    /// Hands the exchanges the peer of `session` opens from now on to `handle`, one at a time, in arrival order; a
    /// later registration for the same session replaces this one. Returns the registration, for `forget`.
    func route(
        _ session: SessionHandle, to handle: @escaping @Sendable (ExchangeHandle, ExchangeMessage) async -> Void
    ) -> UInt64 {
        let inbox = SerialInbox<IncomingExchange>(preferring: EventLoopExecutor.preferred) { exchange, message in
            await handle(exchange, message)
        }
        let (registration, replaced) = state.withLock { state in
            startPump(&state)
            state.lastRegistration += 1
            let replaced = state.inboxes.updateValue((state.lastRegistration, inbox), forKey: session)?.inbox
            return (state.lastRegistration, replaced)
        }
        replaced?.close()
        return registration
    }

    /// The client of one registration went away; a newer registration for the same session stays.
    func forget(_ session: SessionHandle, registration: UInt64) {
        let forgotten = state.withLock { state -> SerialInbox<IncomingExchange>? in
            guard state.inboxes[session]?.registration == registration else { return nil }
            return state.inboxes.removeValue(forKey: session)?.inbox
        }
        forgotten?.close()
    }

    private func startPump(_ state: inout State) {
        guard !isFedByNode, state.pump == nil else { return }
        let incoming = transport.incomingExchanges
        state.pump = Task(executorPreference: EventLoopExecutor.preferred) { [weak self] in
            for await (exchange, message) in incoming {
                guard let self else { return }
                await self.deliver(exchange, message)
            }
        }
    }

    /// Answers an Interaction Model message nobody here expects (a report of an unknown subscription, a request
    /// to a controller) with INVALID_SUBSCRIPTION or INVALID_ACTION; other protocols' messages are just closed.
    static func refuse(_ message: ExchangeMessage, on exchange: ExchangeHandle, over transport: MatterTransport) async {
        if message.protocolID == .interactionModel {
            let status: InteractionModelStatus =
                message.opcode == InteractionModelOpcode.reportData.rawValue ? .invalidSubscription : .invalidAction
            let payload = StatusResponseMessage(status: status).encoded()
            try? await transport.send(
                ExchangeMessage(
                    protocolID: .interactionModel, opcode: InteractionModelOpcode.statusResponse.rawValue,
                    payload: payload), on: exchange)
        }
        await transport.close(exchange)
    }

    deinit {
        state.withLock { state in
            state.pump?.cancel()
            for entry in state.inboxes.values { entry.inbox.close() }
        }
    }
}
