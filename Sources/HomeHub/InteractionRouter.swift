import MatterInteraction
import MatterMessaging
import MatterPlatform

/// Hands each exchange a device opens on a transport (a subscription report) to the `InteractionClient` of its
/// session. A transport's `incomingExchanges` can be consumed only once, so every client of one transport shares
/// one router: the live connections to many nodes run over one transport.
public actor InteractionRouter {
    public typealias IncomingExchange = (ExchangeHandle, ExchangeMessage)

    public nonisolated let transport: MatterTransport
    private var inboxes:
        [SessionHandle: (registration: UInt64, continuation: AsyncStream<IncomingExchange>.Continuation)] = [:]
    private var lastRegistration: UInt64 = 0
    private var pump: Task<Void, Never>?

    public init(transport: MatterTransport) {
        self.transport = transport
    }

    /// The exchanges the peer of `session` opens, in arrival order, from now on; a later call for the same session
    /// replaces the earlier sequence, which finishes.
    func exchanges(for session: SessionHandle) -> AsyncStream<IncomingExchange> {
        startPump()
        let (stream, continuation) = AsyncStream<IncomingExchange>.makeStream()
        lastRegistration += 1
        let registration = lastRegistration
        inboxes.updateValue((registration, continuation), forKey: session)?.continuation.finish()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.forget(session, registration: registration) }
        }
        return stream
    }

    /// The consumer of one registration went away; a newer registration for the same session stays.
    private func forget(_ session: SessionHandle, registration: UInt64) {
        if inboxes[session]?.registration == registration {
            inboxes[session] = nil
        }
    }

    private func startPump() {
        guard pump == nil else { return }
        let incoming = transport.incomingExchanges
        pump = Task(executorPreference: EventLoopExecutor.preferred) { [weak self] in
            for await (exchange, message) in incoming {
                guard let self else { return }
                await self.dispatch(exchange, message)
            }
        }
    }

    private func dispatch(_ exchange: ExchangeHandle, _ message: ExchangeMessage) async {
        guard let inbox = inboxes[exchange.session] else {
            await Self.refuse(message, on: exchange, over: transport)
            return
        }
        inbox.continuation.yield((exchange, message))
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
        pump?.cancel()
        for inbox in inboxes.values { inbox.continuation.finish() }
    }
}
