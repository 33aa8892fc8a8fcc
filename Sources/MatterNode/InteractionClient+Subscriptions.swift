import MatterInteraction
import MatterMessaging
import MatterPlatform
import MatterTLV

/// What a live subscription delivers after its priming report.
public enum SubscriptionUpdate: Sendable {
    /// A later report (an empty one is a keep-alive).
    case report(InteractionReport)
    /// The subscription was lost (no report within the max interval plus the device's retransmission time) or failed.
    /// A subscription cancelled by its holder ends without one.
    case ended(InteractionClientError)
}

/// What the client keeps for one established subscription.
struct ActiveSubscription: Sendable {
    var transaction: SubscribeTransaction
    var liveness: SubscriptionLiveness
    /// Hears the subscription's updates, in order: a holder that waits for them holds no task meanwhile.
    let deliver: @Sendable (SubscriptionUpdate) async -> Void
    let operation: String
    /// Armed for the liveness deadline: a clock timer, not a task, per subscription.
    var watchdog = DeadlineTimer()
}

extension InteractionClient {
    /// Subscribes and waits for the priming report and the SubscribeResponse; `deliver` then hears every later report
    /// and the subscription's end, one at a time, in order, each report answered on the exchange the device opened
    /// for it. A report may come before this returns: the device may report as soon as it has sent its response.
    public func subscribe(
        _ request: SubscribeRequestMessage,
        timeout: Duration = NodeTiming.interactionResponse,
        deliver: @escaping @Sendable (SubscriptionUpdate) async -> Void = { _ in }
    ) async throws(InteractionClientError) -> Subscription {
        // On the loop, the SubscribeResponse's continuation runs before the loop reads the next datagram, so the
        // subscription is registered before its first report, which the device may send at once, is routed here.
        try await withTaskExecutorPreference(EventLoopExecutor.preferred) {
            () async throws(InteractionClientError) -> Subscription in
            try await establish(request, timeout: timeout, deliver: deliver)
        }
    }

    private func establish(
        _ request: SubscribeRequestMessage, timeout: Duration,
        deliver: @escaping @Sendable (SubscriptionUpdate) async -> Void
    ) async throws(InteractionClientError) -> Subscription {
        let operation =
            "subscribe to \(request.attributeRequests.count == 1 ? request.attributeRequests[0].description : "\(request.attributeRequests.count) paths")"
        let fail = { (reason: InteractionClientError.Reason) in
            InteractionClientError(operation: operation, reason: reason)
        }
        startRouting()
        var transaction = SubscribeTransaction(request: request)
        let exchange: ExchangeHandle
        do {
            exchange = try await transport.openExchange(on: session)
        } catch {
            throw fail(.exchange(error))
        }
        var pending = [transaction.start()]
        do throws(InteractionClientError.Reason) {
            while true {
                for action in pending {
                    switch action {
                    case .send(let opcode, let payload):
                        try await send(opcode, payload, on: exchange)
                    case .established(let subscriptionID, let maxInterval, let priming):
                        register(
                            transaction, id: subscriptionID, maxInterval: maxInterval, operation: operation,
                            deliver: deliver)
                        await transport.close(exchange)
                        return Subscription(
                            subscriptionID: subscriptionID, maxInterval: maxInterval, priming: priming, client: self)
                    case .report:
                        break
                    case .failed(let error):
                        throw InteractionClientError.Reason.interaction(error)
                    }
                }
                let message = try await receive(on: exchange, timeout: timeout)
                pending = transaction.receive(opcode: message.opcode, payload: message.payload)
            }
        } catch {
            await transport.close(exchange)
            throw fail(error)
        }
    }

    private func register(
        _ transaction: SubscribeTransaction, id: UInt32, maxInterval: Duration, operation: String,
        deliver: @escaping @Sendable (SubscriptionUpdate) async -> Void
    ) {
        let liveness = SubscriptionLiveness(
            maxInterval: maxInterval, retransmissionAllowance: retransmissionAllowance,
            establishedAt: transport.clock.now)
        subscriptions[id] = ActiveSubscription(
            transaction: transaction, liveness: liveness, deliver: deliver, operation: operation)
        if case .alive(let deadline) = liveness.check(now: transport.clock.now) { armWatchdog(id, for: deadline) }
    }

    /// The time the device's MRP may take to deliver one report: every retransmission timeout at its idle
    /// interval without jitter, plus the largest jitter (25%) on all of them.
    var retransmissionAllowance: Duration {
        let transmissions = ReliableMessagingConstants.maximumTransmissions
        let base = (0..<transmissions).reduce(Duration.zero) { total, prior in
            total + MRPBackoff.timeout(baseInterval: peerParameters.idleInterval, priorTransmissions: prior, jitter: 1)
        }
        return base
    }

    /// Arms the subscription's watchdog for its liveness deadline. When it comes, the deadline is checked again: a
    /// report since has moved it, and the watchdog is armed for the new one; past it, the subscription is lost.
    private func armWatchdog(_ id: UInt32, for deadline: Instant) {
        subscriptions[id]?.watchdog.arm(deadline, on: transport.clock, preferring: EventLoopExecutor.preferred) {
            [weak self] deadline in await self?.watchdogFired(id, at: deadline)
        }
    }

    private func watchdogFired(_ id: UInt32, at deadline: Instant) async {
        guard subscriptions[id]?.watchdog.fired(deadline) == true, let active = subscriptions[id] else { return }
        switch active.liveness.check(now: transport.clock.now) {
        case .alive(let next):
            armWatchdog(id, for: next)
        case .lost:
            let silence = active.liveness.maxInterval + active.liveness.retransmissionAllowance
            await end(
                id, InteractionClientError(operation: active.operation, reason: .subscriptionLost(silentFor: silence)))
        }
    }

    /// Forgets the subscription; its holder hears why it ended.
    private func end(_ id: UInt32, _ error: InteractionClientError) async {
        guard let active = cancelSubscription(id) else { return }
        await active.deliver(.ended(error))
    }

    /// Forgets the subscription without a word to its holder, who cancelled it: the device's next report is refused.
    @discardableResult
    func cancelSubscription(_ id: UInt32) -> ActiveSubscription? {
        guard var active = subscriptions.removeValue(forKey: id) else { return nil }
        active.watchdog.cancel()
        return active
    }

    /// A message on an exchange the device opened: a report of one of our subscriptions (its chunks follow on the
    /// same exchange), answered by the subscription's transaction. Anything else is refused.
    func handleIncoming(_ exchange: ExchangeHandle, _ first: ExchangeMessage) async {
        var message = first
        while true {
            guard exchange.session == session, message.protocolID == .interactionModel,
                message.opcode == InteractionModelOpcode.reportData.rawValue,
                let report = try? ReportDataMessage(payload: message.payload),
                let id = report.subscriptionID, var active = subscriptions[id]
            else {
                await InteractionRouter.refuse(message, on: exchange, over: transport)
                return
            }
            let actions = active.transaction.receive(opcode: message.opcode, payload: message.payload)
            active.liveness.reportReceived(at: transport.clock.now)
            subscriptions[id] = active
            for action in actions {
                switch action {
                case .send(let opcode, let payload):
                    try? await send(opcode, payload, on: exchange)
                case .report(let report):
                    await active.deliver(.report(report))
                case .failed(let error):
                    await end(id, InteractionClientError(operation: active.operation, reason: .interaction(error)))
                case .established:
                    break
                }
            }
            guard report.moreChunkedMessages, subscriptions[id] != nil,
                let next = try? await receive(on: exchange, timeout: NodeTiming.interactionResponse)
            else {
                await transport.close(exchange)
                return
            }
            message = next
        }
    }
}
