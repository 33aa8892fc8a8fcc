import MatterMessaging
import MatterTLV

// Matter Core §8 Interaction Model (server side), encoded as §10 describes. Sans-IO: the driver feeds it every
// Interaction Model message a peer sends (with the access context of its session), the clock and data changes,
// and carries out the `ServerAction`s it returns; after every call it arms one timer at `nextDeadline` and calls
// `tick(now:)` when it fires.
/// The Interaction Model engine of a device: reads (chunked), subscriptions (priming, min/max intervals,
/// keep-alives), writes and invokes (timed or not), events, for any `DataModelProvider`.
///
/// A driver beside an `ExchangeManager` passes every Interaction Model message it delivers to `handle`, sends
/// each `.send` on its exchange and closes each `.closeExchange`; for `.openExchangeAndSend` it opens an exchange,
/// calls `reportExchangeOpened`, then sends. It reports `.exchangeFailed` actions to `exchangeFailed(_:)`.
public struct InteractionServer<Provider: DataModelProvider>: Sendable {
    /// The device's data model. Change it here, then report the changed paths with `attributesChanged(_:now:)`
    /// (or, after recording an event, call `tick(now:)`).
    public var provider: Provider
    var exchanges: [ExchangeHandle: ExchangeState] = [:]
    var subscriptions: [UInt32: ServedSubscription] = [:]
    var lastSubscriptionID: UInt32 = 0
    /// The max interval a sleepy publisher picks whatever the ceiling (seconds): an intermittently connected device's
    /// idle mode duration (Matter Core §9.16.6.1), as it reports only when awake; nil for every other node.
    public var sleepyMaxInterval: UInt16?

    /// What the server waits for on one exchange it is part of.
    enum ExchangeState: Sendable {
        /// A TimedRequest opened an action window until this instant.
        case timedWindow(until: Instant)
        /// A chunked WriteRequest continues; its chunks must agree on being timed. `allowed` holds the paths whose
        /// access was granted earlier in it, which later chunks keep.
        case receivingWrite(timed: Bool, allowed: Set<ConcreteAttributePath>, deadline: Instant)
        /// A series of messages goes out, each after the peer's StatusResponse to the previous one.
        case sendingChunks(InteractionModelOpcode, remaining: [[UInt8]], then: Completion, deadline: Instant)

        /// When the server gives up waiting.
        var deadline: Instant {
            switch self {
            case .timedWindow(let until): until + InteractionTiming.serverResponseTimeout
            case .receivingWrite(_, _, let deadline), .sendingChunks(_, _, _, let deadline): deadline
            }
        }
    }

    /// What follows the StatusResponse to the last message of a series.
    enum Completion: Hashable, Sendable {
        /// Nothing: the last message needed no answer (a read's, an invoke's).
        case close
        /// A priming report ended: send the SubscribeResponse.
        case subscribeResponse(UInt32)
        /// A subscription report was acknowledged.
        case report(UInt32)
    }

    public init(provider: Provider) {
        self.provider = provider
    }

    /// The subscriptions being primed or established, in ascending order.
    /// Whether a subscription of `subject` on fabric `fabricIndex` is served now (an ICD checks in only with the
    /// registered clients that have none, Matter Core §9.16.6.3).
    public func isSubscribed(fabricIndex: UInt8, subject: UInt64) -> Bool {
        subscriptions.values.contains { $0.context.fabricIndex == fabricIndex && $0.context.subject == subject }
    }

    public var subscriptionIDs: [UInt32] {
        subscriptions.keys.sorted()
    }

    // MARK: Messages

    /// One Interaction Model message from a peer, on the exchange it arrived on; `context` describes its session.
    public mutating func handle(
        opcode rawOpcode: UInt8, payload: [UInt8], on exchange: ExchangeHandle,
        context: AccessContext, now: Instant
    ) -> [ServerAction] {
        guard let opcode = InteractionModelOpcode(rawValue: rawOpcode) else {
            return abandonExchange(exchange) + refuse(exchange, .invalidAction)
        }
        if let state = exchanges.removeValue(forKey: exchange) {
            return continueExchange(state, opcode: opcode, payload: payload, on: exchange, context: context, now: now)
        }
        switch opcode {
        case .readRequest:
            return read(payload, on: exchange, context: context, now: now)
        case .subscribeRequest:
            return subscribe(payload, on: exchange, context: context, now: now)
        case .writeRequest:
            return write(payload, on: exchange, timedWindow: nil, context: context, now: now)
        case .invokeRequest:
            return invoke(payload, on: exchange, timedWindow: nil, context: context, now: now)
        case .timedRequest:
            guard let request = try? TimedRequestMessage(payload: payload) else {
                return refuse(exchange, .invalidAction)
            }
            exchanges[exchange] = .timedWindow(until: now + .milliseconds(request.timeout))
            return [.send(.statusResponse, StatusResponseMessage(status: .success).encoded(), on: exchange)]
        case .statusResponse, .subscribeResponse, .reportData, .writeResponse, .invokeResponse:
            return refuse(exchange, .invalidAction)
        }
    }

    private mutating func continueExchange(
        _ state: ExchangeState, opcode: InteractionModelOpcode, payload: [UInt8],
        on exchange: ExchangeHandle, context: AccessContext, now: Instant
    ) -> [ServerAction] {
        switch (state, opcode) {
        case (.sendingChunks(let chunkOpcode, let remaining, let completion, _), .statusResponse):
            guard let status = try? StatusResponseMessage(payload: payload).status, status == .success else {
                return abandon(completion) + [.closeExchange(exchange)]
            }
            guard let next = remaining.first else {
                return complete(completion, on: exchange, now: now)
            }
            return sendSeries(chunkOpcode, [next] + remaining.dropFirst(), then: completion, on: exchange, now: now)
        case (.timedWindow(let until), .invokeRequest):
            return invoke(payload, on: exchange, timedWindow: until, context: context, now: now)
        case (.timedWindow(let until), .writeRequest):
            return write(payload, on: exchange, timedWindow: until, context: context, now: now)
        case (.receivingWrite(let timed, let allowed, _), .writeRequest):
            return continueWrite(payload, on: exchange, timed: timed, allowed: allowed, context: context, now: now)
        case (.sendingChunks(_, _, let completion, _), _):
            return abandon(completion) + refuse(exchange, .invalidAction)
        case (.timedWindow, _), (.receivingWrite, _):
            return refuse(exchange, .invalidAction)
        }
    }

    // MARK: Series of messages

    /// Sends the first of `messages`; the rest follow one per StatusResponse SUCCESS, then `completion`. A series
    /// that completes by closing ends with its last message, which asks for no answer.
    mutating func sendSeries(
        _ opcode: InteractionModelOpcode, _ messages: [[UInt8]], then completion: Completion,
        on exchange: ExchangeHandle, now: Instant
    ) -> [ServerAction] {
        guard let first = messages.first else { return complete(completion, on: exchange, now: now) }
        let remaining = Array(messages.dropFirst())
        if remaining.isEmpty, completion == .close {
            return [.send(opcode, first, on: exchange), .closeExchange(exchange)]
        }
        exchanges[exchange] = .sendingChunks(
            opcode, remaining: remaining, then: completion,
            deadline: now + InteractionTiming.serverResponseTimeout)
        return [.send(opcode, first, on: exchange)]
    }

    private mutating func complete(
        _ completion: Completion, on exchange: ExchangeHandle, now: Instant
    ) -> [ServerAction] {
        switch completion {
        case .close:
            return [.closeExchange(exchange)]
        case .subscribeResponse(let id):
            guard var subscription = subscriptions[id] else { return [.closeExchange(exchange)] }
            subscription.phase = .idle
            subscription.lastReport = now
            subscriptions[id] = subscription
            let seconds = UInt16(clamping: subscription.maxInterval.components.seconds)
            let response = SubscribeResponseMessage(subscriptionID: id, maxInterval: seconds)
            return [.send(.subscribeResponse, response.encoded(), on: exchange), .closeExchange(exchange)]
        case .report(let id):
            subscriptions[id]?.phase = .idle
            return [.closeExchange(exchange)]
        }
    }

    /// A series broke off: the subscription it served is gone (the caller closes the exchange).
    private mutating func abandon(_ completion: Completion) -> [ServerAction] {
        switch completion {
        case .close:
            return []
        case .subscribeResponse(let id), .report(let id):
            subscriptions[id] = nil
            return []
        }
    }

    /// Forgets what the server waited for on this exchange, and the subscription that was using it.
    private mutating func abandonExchange(_ exchange: ExchangeHandle) -> [ServerAction] {
        switch exchanges.removeValue(forKey: exchange) {
        case .sendingChunks(_, _, let completion, _)?: abandon(completion)
        case .timedWindow?, .receivingWrite?, nil: []
        }
    }

    /// A StatusResponse with this status, ending the exchange.
    func refuse(_ exchange: ExchangeHandle, _ status: InteractionModelStatus) -> [ServerAction] {
        [
            .send(.statusResponse, StatusResponseMessage(status: status).encoded(), on: exchange),
            .closeExchange(exchange),
        ]
    }

    // MARK: Exchange failures and time

    /// The exchange layer gave up on this exchange (MRP retransmissions exhausted, session gone): whatever it
    /// carried is over, and a subscription whose report it carried is dropped.
    public mutating func exchangeFailed(_ exchange: ExchangeHandle) {
        _ = abandonExchange(exchange)
    }

    /// Gives up interactions whose peer went silent, and sends the subscription reports that are due.
    public mutating func tick(now: Instant) -> [ServerAction] {
        var actions: [ServerAction] = []
        for (exchange, state) in exchanges.sorted(by: { $0.key < $1.key }) where now >= state.deadline {
            actions += abandonExchange(exchange)
            exchanges[exchange] = nil
            actions.append(.closeExchange(exchange))
        }
        return actions + reportDueSubscriptions(now: now)
    }

    /// When `tick(now:)` has something to do next; nil when nothing is scheduled.
    public var nextDeadline: Instant? {
        // Closures, not key paths, throughout this generic type: a generic key path is built at run time per call.
        let exchangeDeadlines = exchanges.values.map { $0.deadline }
        let subscriptionDeadlines = subscriptions.values.compactMap { subscription -> Instant? in
            switch subscription.phase {
            case .idle:
                hasPendingChanges(subscription)
                    ? min(subscription.minimumReportTime, subscription.keepAliveTime) : subscription.keepAliveTime
            case .awaitingExchange(_, let deadline):
                deadline
            case .priming, .reporting:
                nil
            }
        }
        return (exchangeDeadlines + subscriptionDeadlines).min()
    }
}
