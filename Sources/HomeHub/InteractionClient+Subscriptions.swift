import MatterInteraction
import MatterMessaging
import MatterPlatform
import MatterTLV

/// What the client keeps for one established subscription.
struct ActiveSubscription: Sendable {
    var transaction: SubscribeTransaction
    var liveness: SubscriptionLiveness
    let continuation: AsyncThrowingStream<InteractionReport, any Error>.Continuation
    let operation: String
    /// Armed for the liveness deadline: a clock timer, not a task, per subscription.
    var watchdog = DeadlineTimer()
}

extension InteractionClient {
    /// Subscribes and waits for the priming report and the SubscribeResponse; later reports come from the
    /// returned sequence, each answered on the exchange the device opened for it.
    public func subscribe(
        _ request: SubscribeRequestMessage,
        timeout: Duration = HubTiming.interactionResponse
    ) async throws(InteractionClientError) -> Subscription {
        // On the loop, the SubscribeResponse's continuation runs before the loop reads the next datagram, so the
        // subscription is registered before its first report, which the device may send at once, is routed here.
        try await withTaskExecutorPreference(EventLoopExecutor.preferred) {
            () async throws(InteractionClientError) -> Subscription in
            try await establish(request, timeout: timeout)
        }
    }

    private func establish(
        _ request: SubscribeRequestMessage, timeout: Duration
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
                        let subscription = register(
                            transaction, id: subscriptionID, maxInterval: maxInterval,
                            priming: priming, operation: operation)
                        await transport.close(exchange)
                        return subscription
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
        _ transaction: SubscribeTransaction, id: UInt32, maxInterval: Duration, priming: InteractionReport,
        operation: String
    ) -> Subscription {
        let (reports, continuation) = AsyncThrowingStream<InteractionReport, any Error>.makeStream()
        let liveness = SubscriptionLiveness(
            maxInterval: maxInterval, retransmissionAllowance: retransmissionAllowance,
            establishedAt: transport.clock.now)
        subscriptions[id] = ActiveSubscription(
            transaction: transaction, liveness: liveness, continuation: continuation,
            operation: operation)
        armWatchdog(id)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.endSubscription(id, error: nil) }
        }
        return Subscription(
            subscriptionID: id, maxInterval: maxInterval, priming: priming, reports: reports, client: self)
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

    /// Arms the subscription's watchdog for its liveness deadline. When it comes, the deadline is checked again (a
    /// report since has moved it, and the watchdog is armed for the new one) and the subscription ends if it passed.
    private func armWatchdog(_ id: UInt32) {
        guard let deadline = livenessDeadline(of: id) else { return }
        subscriptions[id]?.watchdog.arm(deadline, on: transport.clock, preferring: EventLoopExecutor.preferred) {
            [weak self] deadline in await self?.watchdogFired(id, at: deadline)
        }
    }

    private func watchdogFired(_ id: UInt32, at deadline: Instant) {
        guard subscriptions[id]?.watchdog.fired(deadline) == true else { return }
        armWatchdog(id)
    }

    /// The subscription's liveness deadline, or nil once it ended; ends it with an error when the deadline passed.
    func livenessDeadline(of id: UInt32) -> Instant? {
        guard let active = subscriptions[id] else { return nil }
        switch active.liveness.check(now: transport.clock.now) {
        case .alive(let deadline):
            return deadline
        case .lost:
            let silence = active.liveness.maxInterval + active.liveness.retransmissionAllowance
            endSubscription(
                id,
                error: InteractionClientError(
                    operation: active.operation, reason: .subscriptionLost(silentFor: silence)))
            return nil
        }
    }

    /// Forgets the subscription and finishes its sequence, with `error` when it failed.
    func endSubscription(_ id: UInt32, error: InteractionClientError?) {
        guard var active = subscriptions.removeValue(forKey: id) else { return }
        active.watchdog.cancel()
        active.continuation.finish(throwing: error)
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
                    active.continuation.yield(report)
                case .failed(let error):
                    endSubscription(
                        id, error: InteractionClientError(operation: active.operation, reason: .interaction(error)))
                case .established:
                    break
                }
            }
            guard report.moreChunkedMessages, subscriptions[id] != nil,
                let next = try? await receive(on: exchange, timeout: HubTiming.interactionResponse)
            else {
                await transport.close(exchange)
                return
            }
            message = next
        }
    }
}
