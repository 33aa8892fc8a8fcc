import Foundation
import MatterInteraction
import MatterMessaging
import MatterPlatform

/// The live connection to one commissioned node: a secure session, one wildcard subscription that keeps an
/// `AttributeCache` of the whole node current and hears its events, and honest connectivity. A subscription that falls silent past its
/// liveness deadline (max interval plus the node's MRP retransmission time) makes the node offline; the connection
/// then drops the session and establishes a new one and a new subscription with `ResubscriptionBackoff`, until
/// stopped. Everything that changes is published to every `events()` sequence.
public actor NodeConnection {
    public nonisolated let nodeID: UInt64
    public nonisolated let settings: Settings
    private let transport: MatterTransport
    private let router: InteractionRouter
    private let establishSession: @Sendable () async throws -> NodeSession
    /// Hears every event from the connection's start, on its executor, synchronously: the owner's feed, which holds
    /// no task (`NodeConnections`).
    private let observer: @Sendable (NodeConnection, Event) -> Void

    public private(set) var state: State = .connecting
    /// Every attribute of the node as its reports left it.
    public private(set) var cache = AttributeCache()
    /// The number of the last event heard: a resubscription asks only for later ones (§8.5.2 EventMin), and an
    /// event is published once.
    private var lastEventNumber: UInt64?
    private var session: NodeSession?
    private(set) var client: InteractionClient?
    private var subscription: Subscription?
    private var observers: [UInt64: AsyncStream<Event>.Continuation] = [:]
    private var lastObserver: UInt64 = 0
    private var maintenance: Task<Void, Never>?

    /// `establishSession` opens a new secure session to the node each time the connection needs one (CASE for the
    /// hub); it runs again after a loss, as the node may have rebooted and forgotten the old session. `cache` is what
    /// an earlier connection left (the store's, after a restart): shown at once, and its data versions let the first
    /// subscription's priming leave out every cluster that did not change meanwhile. `observer` hears every event.
    public init(
        nodeID: UInt64, transport: MatterTransport, router: InteractionRouter, settings: Settings = Settings(),
        cache: AttributeCache = AttributeCache(),
        observer: @escaping @Sendable (NodeConnection, Event) -> Void = { _, _ in },
        establishSession: @escaping @Sendable () async throws -> NodeSession
    ) {
        self.nodeID = nodeID
        self.transport = transport
        self.router = router
        self.settings = settings
        self.cache = cache
        self.observer = observer
        self.establishSession = establishSession
    }

    /// Starts connecting, and keeps the connection up until `stop()`; a second call does nothing.
    public func start() {
        guard maintenance == nil else { return }
        maintenance = Task { await self.maintain() }
    }

    /// Ends the subscription and the session; every `events()` sequence finishes.
    public func stop() async {
        maintenance?.cancel()
        maintenance = nil
        await subscription?.cancel()
        subscription = nil
        await dropSession()
        for observer in observers.values { observer.finish() }
        observers = [:]
    }

    /// The connection's events from now on, starting with the current state and, when the cache holds anything,
    /// every cached path: a late joiner sees the whole node before the changes.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        continuation.yield(.connectivity(state))
        let cached = cache.paths
        if !cached.isEmpty { continuation.yield(.attributes(Set(cached))) }
        lastObserver += 1
        let id = lastObserver
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    /// Returns once the connection is online; throws `.unreachable` when it is offline or becomes so first.
    public func connected() async throws(NodeConnectionError) {
        for await event in events() {
            switch event {
            case .connectivity(.online): return
            case .connectivity(.offline(_, let reason)): throw .unreachable(nodeID: nodeID, reason: reason)
            case .connectivity(.connecting), .attributes, .events: continue
            }
        }
        throw .stopped(nodeID: nodeID)
    }

    // MARK: Keeping the subscription alive

    private func maintain() async {
        var backoff = ResubscriptionBackoff()
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let reason: String
            do {
                let subscription = try await subscribeInChildTask()
                backoff.reset()
                reason = try await follow(subscription)
            } catch {
                reason = Self.reason(error)
            }
            guard !Task.isCancelled else { return }
            becomeOffline(reason)
            try? await transport.clock.sleep(for: backoff.nextDelay(using: &random))
        }
    }

    /// `subscribe()` in a child task of its own. A task's allocator keeps the memory of its deepest wait for as long
    /// as the task lives, and this one lives as long as the node is followed: a session's establishment and a
    /// priming, several KiB of frames, are freed with the child instead.
    private func subscribeInChildTask() async throws -> Subscription {
        try await withThrowingTaskGroup(of: Subscription.self) { group in
            group.addTask { try await self.subscribe() }
            guard let subscription = try await group.next() else { throw CancellationError() }
            return subscription
        }
    }

    /// Establishes a session when there is none, subscribes (to every attribute of the node by default), applies the priming
    /// report and goes online. A failure below the Interaction Model drops the session: the next attempt starts
    /// with a new one.
    private func subscribe() async throws -> Subscription {
        let current: NodeSession
        if let session {
            current = session
        } else {
            current = try await establishSession()
            guard !Task.isCancelled else {
                await transport.removeSession(current.session)
                throw CancellationError()
            }
            session = current
        }
        let client = InteractionClient(
            transport: transport, session: current.session, peerParameters: current.peerParameters, router: router)
        self.client = client
        // Data version filters let the node leave out the clusters that did not change since the last subscription.
        let eventFilters =
            settings.eventPaths.isEmpty ? [] : lastEventNumber.map { [EventFilterIB(eventMinimum: $0 &+ 1)] } ?? []
        let request = SubscribeRequestMessage(
            minIntervalFloor: 0, maxIntervalCeiling: settings.maxIntervalCeiling,
            attributeRequests: settings.attributePaths, eventRequests: settings.eventPaths, eventFilters: eventFilters,
            dataVersionFilters: cache.dataVersionFilters)
        var subscription: Subscription
        do {
            subscription = try await client.subscribe(request, timeout: settings.responseTimeout)
        } catch {
            if error.status == nil { await dropSession() }
            throw error
        }
        // The first priming brings the events the node kept from before we followed it: history, not news.
        apply(subscription.takePriming(), publishingEvents: lastEventNumber != nil)
        self.subscription = subscription
        setState(.online)
        return subscription
    }

    /// Applies every report until the subscription ends; returns why it ended. A lost subscription also drops
    /// the session, as connectedhomeip does: a node that went silent may have rebooted and forgotten it.
    private func follow(_ subscription: Subscription) async throws -> String {
        do {
            for try await report in subscription {
                apply(report)
            }
        } catch {
            self.subscription = nil
            await dropSession()
            throw error
        }
        self.subscription = nil
        return "the subscription ended"
    }

    /// The whole node read again (the Matter-server API's interview_node), through a second subscription's priming
    /// report, as the live subscription primes (some devices answer no read longer than one packet), then dropped;
    /// what it finds is applied as a report is, so what had drifted is published. The live subscription goes on.
    public func reinterview() async throws(NodeConnectionError) {
        try await connected()
        guard let client else { throw .unreachable(nodeID: nodeID, reason: "no session") }
        let request = SubscribeRequestMessage(
            minIntervalFloor: 0, maxIntervalCeiling: HubTiming.interviewMaxIntervalCeiling,
            attributeRequests: settings.attributePaths)
        do {
            let subscription = try await client.subscribe(request, timeout: settings.responseTimeout)
            await subscription.cancel()
            apply(subscription.priming, publishingEvents: false)
        } catch {
            throw .interaction(error)
        }
    }

    private func apply(_ report: InteractionReport, publishingEvents: Bool = true) {
        let changed = cache.applyFollowingEndpoints(report.attributeReports)
        if !changed.isEmpty { publish(.attributes(changed)) }
        let heard = lastEventNumber
        let events = NodeEvent.events(of: report.eventReports).filter { event in
            heard.map { event.number > $0 } ?? true
        }
        if let last = events.map(\.number).max() { lastEventNumber = max(last, heard ?? 0) }
        if publishingEvents && !events.isEmpty { publish(.events(events)) }
    }

    private func dropSession() async {
        if let session { await transport.closeSession(session.session) }
        session = nil
        client = nil
    }

    // MARK: State and observers

    /// An offline node stays offline since its first failure while the retries fail too.
    private func becomeOffline(_ reason: String) {
        if case .offline = state { return }
        setState(.offline(since: Date(), reason: reason))
    }

    private func setState(_ new: State) {
        guard new != state else { return }
        state = new
        publish(.connectivity(new))
    }

    private func publish(_ event: Event) {
        observer(self, event)
        for stream in observers.values { stream.yield(event) }
    }

    private func removeObserver(_ id: UInt64) {
        observers[id] = nil
    }

    /// Why an attempt failed; a loss without the operation, which is always the subscription
    /// ("subscription lost: no report for 7.0 s").
    private static func reason(_ error: any Error) -> String {
        if let error = error as? InteractionClientError, case .subscriptionLost = error.reason {
            return "\(error.reason)"
        }
        return "\(error)"
    }
}
