import MatterMessaging
import MatterTLV

// Matter Core §8.5 Subscribe Interaction, publisher side: SubscribeRequest → priming ReportData chunks, each
// acknowledged → SubscribeResponse; then, on exchanges the server opens, a report of what changed once the min
// interval has passed, or an empty one before the max interval ends, each acknowledged by a StatusResponse.
extension InteractionServer {
    mutating func subscribe(
        _ payload: [UInt8], on exchange: ExchangeHandle, context: AccessContext, now: Instant
    ) -> [ServerAction] {
        guard let request = try? SubscribeRequestMessage(payload: payload),
            !(request.attributeRequests.isEmpty && request.eventRequests.isEmpty),
            request.minIntervalFloor <= request.maxIntervalCeiling
        else {
            return refuse(exchange, .invalidAction)
        }
        var actions: [ServerAction] = []
        if !request.keepSubscriptions {
            let earlier = subscriptions.values.filter {
                $0.context.fabricIndex == context.fabricIndex && $0.context.subject == context.subject
            }
            for subscription in earlier.sorted(by: { $0.id < $1.id }) {
                actions += cancelSubscription(subscription.id)
            }
        }
        guard subscriptions.count < InteractionConstants.maximumServedSubscriptions else {
            return actions + refuse(exchange, .resourceExhausted)
        }
        let id = newSubscriptionID()
        let attributes = attributeReports(
            for: request.attributeRequests, skipping: request.dataVersionFilters,
            isFabricFiltered: request.isFabricFiltered, context: context)
        let minimum = request.eventFilters.map { $0.eventMinimum }.max() ?? 0
        let events = eventData(for: request.eventRequests, from: minimum, context: context)
        // The publisher picks the max interval (§8.5.1: at least the floor, at most the larger of the ceiling and an
        // hour): the subscriber's ceiling, at least 1 s so keep-alives cannot spin; a sleepy device its idle time, so
        // its keep-alives come as it wakes anyway, and a subscriber it lost is noticed within one idle period.
        let maxInterval = max(sleepyMaxInterval ?? request.maxIntervalCeiling, request.minIntervalFloor, 1)
        subscriptions[id] = ServedSubscription(
            id: id, session: exchange.session, context: context, attributePaths: request.attributeRequests,
            eventPaths: request.eventRequests, isFabricFiltered: request.isFabricFiltered,
            minInterval: .seconds(request.minIntervalFloor), maxInterval: .seconds(maxInterval),
            phase: .priming(exchange), lastReport: now, nextEventNumber: events.next)
        let chunks = MessageChunker.reportData(
            attributeReports: attributes,
            eventReports: eventStatuses(for: request.eventRequests, context: context) + events.reports,
            subscriptionID: id, suppressLastResponse: false)
        return actions + sendSeries(.reportData, chunks, then: .subscribeResponse(id), on: exchange, now: now)
    }

    /// IDs count up from 1, skipping any still in use once they wrap.
    private mutating func newSubscriptionID() -> UInt32 {
        repeat {
            lastSubscriptionID &+= 1
        } while lastSubscriptionID == 0 || subscriptions[lastSubscriptionID] != nil
        return lastSubscriptionID
    }

    /// The driver opened the exchange of an `.openExchangeAndSend` for this subscription; the StatusResponse to
    /// the report will arrive on it.
    public mutating func reportExchangeOpened(_ exchange: ExchangeHandle, subscriptionID: UInt32) {
        guard var subscription = subscriptions[subscriptionID],
            case .awaitingExchange(let remaining, let deadline) = subscription.phase
        else { return }
        exchanges[exchange] = .sendingChunks(
            .reportData, remaining: remaining, then: .report(subscriptionID), deadline: deadline)
        subscription.phase = .reporting(exchange)
        subscriptions[subscriptionID] = subscription
    }

    /// Ends a subscription (its exchange could not be opened, its fabric was removed…); closes the exchange of a
    /// report under way.
    public mutating func cancelSubscription(_ id: UInt32) -> [ServerAction] {
        guard let subscription = subscriptions.removeValue(forKey: id) else { return [] }
        switch subscription.phase {
        case .priming(let exchange), .reporting(let exchange):
            exchanges[exchange] = nil
            return [.closeExchange(exchange)]
        case .idle, .awaitingExchange:
            return []
        }
    }

    /// Ends every subscription of a session that closed (Matter Core §4.11.1.4 CloseSession, or the session
    /// removed): nothing more is reported on it.
    public mutating func sessionClosed(_ session: SessionHandle) -> [ServerAction] {
        subscriptions.values.filter { $0.session == session }.map { $0.id }.sorted().flatMap { cancelSubscription($0) }
    }

    /// These attributes changed: every subscription covering one reports it once its min interval allows.
    /// Returns the reports already due.
    public mutating func attributesChanged(_ paths: [ConcreteAttributePath], now: Instant) -> [ServerAction] {
        markChanged(paths)
        return tick(now: now)
    }

    mutating func markChanged(_ paths: [ConcreteAttributePath]) {
        for id in subscriptions.keys {
            guard let subscription = subscriptions[id] else { continue }
            let covered = paths.filter(subscription.covers)
            if !covered.isEmpty {
                subscriptions[id]?.dirty.formUnion(covered)
            }
        }
    }

    func hasPendingChanges(_ subscription: ServedSubscription) -> Bool {
        !subscription.dirty.isEmpty
            || !eventData(
                for: subscription.eventPaths, from: subscription.nextEventNumber, context: subscription.context
            ).reports.isEmpty
    }

    /// Drops subscriptions whose report exchange was never opened in time, and starts the reports that are due.
    mutating func reportDueSubscriptions(now: Instant) -> [ServerAction] {
        var actions: [ServerAction] = []
        for id in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[id] else { continue }
            switch subscription.phase {
            case .awaitingExchange(_, let deadline) where now >= deadline:
                actions += cancelSubscription(id)
            case .idle:
                if now >= subscription.minimumReportTime, hasPendingChanges(subscription) {
                    actions += report(id, changes: true, now: now)
                } else if now >= subscription.keepAliveTime {
                    actions += report(id, changes: false, now: now)
                }
            case .awaitingExchange, .priming, .reporting:
                break
            }
        }
        return actions
    }

    /// The changed attributes (read now, still covered and allowed) and new events, or an empty keep-alive.
    private mutating func report(_ id: UInt32, changes: Bool, now: Instant) -> [ServerAction] {
        guard var subscription = subscriptions[id] else { return [] }
        var attributes: [AttributeReportIB] = []
        var events: [EventReportIB] = []
        if changes {
            let order = { (path: ConcreteAttributePath) in (path.endpoint, path.cluster, path.attribute) }
            for path in subscription.dirty.sorted(by: { order($0) < order($1) }) {
                guard case .success(let (cluster, attribute)) = lookUp(path),
                    provider.isAllowed(
                        AccessRequest(cluster: path.clusterPath, privilege: attribute.readPrivilege),
                        for: subscription.context)
                else { continue }
                switch readValue(
                    path, of: cluster, isFabricFiltered: subscription.isFabricFiltered, context: subscription.context)
                {
                case .success(let value): attributes.append(dataReport(path, value))
                case .failure(let status): attributes.append(statusReport(path, status))
                }
            }
            let data = eventData(
                for: subscription.eventPaths, from: subscription.nextEventNumber, context: subscription.context)
            events = data.reports
            subscription.nextEventNumber = data.next
            subscription.dirty = []
        }
        let chunks = MessageChunker.reportData(
            attributeReports: attributes, eventReports: events, subscriptionID: id,
            suppressLastResponse: false)
        subscription.lastReport = now
        subscription.phase = .awaitingExchange(
            remaining: Array(chunks.dropFirst()), deadline: now + InteractionTiming.serverResponseTimeout)
        subscriptions[id] = subscription
        return chunks.first.map { [.openExchangeAndSend(subscription.session, .reportData, $0, subscriptionID: id)] }
            ?? []
    }
}
