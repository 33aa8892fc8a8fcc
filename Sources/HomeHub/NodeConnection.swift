import Foundation
import HomeRecords
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import Synchronization

/// The live connection to one commissioned node: a secure session, one wildcard subscription that keeps an
/// `AttributeCache` of the whole node current and hears its events, and honest connectivity. A subscription that falls silent past its
/// liveness deadline (max interval plus the node's MRP retransmission time) makes the node offline; the connection
/// then drops the session and establishes a new one and a new subscription with `ResubscriptionBackoff`, until
/// stopped. A Long Idle Time device the hub is the check-in client of (`expectCheckIns`) is asleep instead, and
/// nothing is tried until it checks in (`checkedIn`) or lets two check-ins pass, which makes it offline. Everything
/// that changes is published to every `events()` sequence.
///
/// No task lives while the node is online or waiting to retry: a hub follows a thousand nodes, and a suspended
/// task keeps the memory of its deepest wait for as long as it lives. Reports come through the subscription's
/// handler, the retry through a clock timer; only an attempt (a session and a subscription) runs in a task.
public actor NodeConnection {
    public nonisolated let nodeID: UInt64
    public nonisolated let settings: Settings
    private let transport: MatterTransport
    private let router: InteractionRouter
    private let establishSession: @Sendable () async throws -> NodeSession
    /// Hears every event from the connection's start, on its executor, synchronously, with the node as that event
    /// left it: the owner's feed, which holds no task (`NodeConnections`). The view is taken then, not when the feed
    /// gets to it: by then later reports may be in the cache, and a value taken in with an earlier event would
    /// never be announced by its own.
    private let observer: @Sendable (NodeConnection, Event, HomeModel.NodeView) -> Void

    public private(set) var state: State = .connecting
    /// Every attribute of the node as its reports left it.
    public private(set) var cache = AttributeCache()
    /// The number of the last event heard: a resubscription asks only for later ones (§8.5.2 EventMin), and an
    /// event is published once.
    private var lastEventNumber: UInt64?
    private var session: NodeSession?
    private(set) var client: InteractionClient?
    private var upkeep = Upkeep.notStarted
    /// Numbers the attempts, so that an update of an earlier attempt's subscription is told apart and ignored.
    private var attempts = 0
    private var backoff = ResubscriptionBackoff()
    /// The revision of the node's view: a new one from the process-wide count with each event, so that views are
    /// ordered across connections too.
    private var revision = NodeConnection.nextRevision()
    private static let revisions = Atomic<UInt64>(0)
    private var observers: [UInt64: AsyncStream<Event>.Continuation] = [:]
    private var lastObserver: UInt64 = 0
    /// Commands waiting for a session (`sessionClient`), by number: told when an attempt has one, fails, or the
    /// connection stops, or when the command's task is cancelled.
    private var sessionWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var lastSessionWaiter: UInt64 = 0
    /// A Long Idle Time device the hub is the check-in client of wakes at least this often (`expectCheckIns`): out of
    /// reach meanwhile by design, it is asleep rather than offline, and is not tried again until it checks in.
    private var checkInPeriod: Duration?
    /// When the node last showed it was awake (a report, a priming, a check-in): its promise runs from there.
    private var lastHeard: Instant?
    /// It let a promised check-in pass: tried again with backoff like any node until it is heard from.
    private var missedCheckIns = false

    /// What keeps the connection up now; each case holds what ends it on `stop()`.
    private enum Upkeep {
        case notStarted
        /// Attempt `number` is setting up a session and a subscription. Updates of its subscription that come before
        /// the subscription is returned (a device may report at once) wait in `early`.
        case attempting(number: Int, task: Task<Void, Never>, early: [SubscriptionUpdate])
        case following(Subscription, attempt: Int)
        /// Offline, until the timer starts the next attempt.
        case waiting(DeadlineTimer)
        /// Asleep, until it checks in (`checkedIn`) or the timer says it let its promise pass.
        case sleeping(DeadlineTimer)
        case stopped
    }

    /// `establishSession` opens a new secure session to the node each time the connection needs one (CASE for the
    /// hub); it runs again after a loss, as the node may have rebooted and forgotten the old session. `cache` is what
    /// an earlier connection left (the store's, after a restart): shown at once, and its data versions let the first
    /// subscription's priming leave out every cluster that did not change meanwhile. `observer` hears every event.
    public init(
        nodeID: UInt64, transport: MatterTransport, router: InteractionRouter, settings: Settings = Settings(),
        cache: AttributeCache = AttributeCache(),
        observer: @escaping @Sendable (NodeConnection, Event, HomeModel.NodeView) -> Void = { _, _, _ in },
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
        switch upkeep {
        case .notStarted, .stopped: beginAttempt()
        case .attempting, .following, .waiting, .sleeping: return
        }
    }

    /// The node rebooted (it said so: NotifyUpdateApplied after a firmware update): the session it forgot is dropped and
    /// a new subscription attempted at once, rather than after the old one's silence (its max interval and more).
    public func renew() async {
        let old: Subscription?
        switch upkeep {
        case .following(let subscription, _): old = subscription
        case .waiting(var timer), .sleeping(var timer):
            timer.cancel()
            old = nil
        case .attempting, .notStarted, .stopped: return
        }
        // Forgotten and the new attempt begun before any await: nothing meanwhile hands out the dead session.
        let forgotten = session
        session = nil
        client = nil
        beginAttempt()
        await old?.cancel()
        if let forgotten { await transport.closeSession(forgotten.session) }
    }

    /// Ends the subscription and the session; every `events()` sequence finishes.
    public func stop() async {
        let ended = upkeep
        upkeep = .stopped
        switch ended {
        case .attempting(_, let task, _): task.cancel()
        case .following(let subscription, _): await subscription.cancel()
        case .waiting(var timer), .sleeping(var timer): timer.cancel()
        case .notStarted, .stopped: break
        }
        await dropSession()
        for observer in observers.values { observer.finish() }
        observers = [:]
        wakeSessionWaiters()
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
            case .connectivity(.connecting), .connectivity(.asleep), .attributes, .events: continue
            }
        }
        throw .stopped(nodeID: nodeID)
    }

    /// The client of a secure session to the node, for a one-shot command: it needs the session, not the
    /// subscription. At once when there is one (a subscription that failed keeps the session it had just established;
    /// the next attempt reuses it), else once the attempt under way has one; `.unreachable` when the node is offline
    /// with no session, or the attempt fails before it has one (or the caller's task is cancelled first).
    func sessionClient() async throws(NodeConnectionError) -> InteractionClient {
        while true {
            if let client { return client }
            if Task.isCancelled {
                throw .unreachable(nodeID: nodeID, reason: "the command was cancelled before the node's session was up")
            }
            switch upkeep {
            case .stopped: throw .stopped(nodeID: nodeID)
            case .waiting, .sleeping:
                if case .offline(_, let reason) = state { throw .unreachable(nodeID: nodeID, reason: reason) }
                if case .asleep = state {
                    throw .unreachable(nodeID: nodeID, reason: "\(state): reached once it wakes")
                }
                throw .unreachable(nodeID: nodeID, reason: "no session")
            case .notStarted: start()
            case .attempting, .following: break
            }
            lastSessionWaiter += 1
            let waiter = lastSessionWaiter
            await withTaskCancellationHandler {
                await withCheckedContinuation { sessionWaiters[waiter] = $0 }
            } onCancel: {
                Task { await self.wakeSessionWaiter(waiter) }
            }
        }
    }

    /// Lets every waiting command look again: a session came up, or an attempt ended without one.
    private func wakeSessionWaiters() {
        let waiters = sessionWaiters
        sessionWaiters = [:]
        for waiter in waiters.values { waiter.resume() }
    }

    /// Lets one waiting command look again (its task was cancelled); nothing when it was woken already.
    private func wakeSessionWaiter(_ waiter: UInt64) {
        sessionWaiters.removeValue(forKey: waiter)?.resume()
    }

    // MARK: Keeping the subscription alive

    private func beginAttempt() {
        attempts += 1
        let number = attempts
        // The task waits for this actor, so `upkeep` holds it before it runs. It runs on the pool, not the loop: CASE
        // signs and verifies, and a thousand nodes' attempts on the loop would delay every other node's messages.
        let task = Task { await self.attempt(number) }
        upkeep = .attempting(number: number, task: task, early: [])
    }

    /// Subscribes; goes online with the priming report and then the updates that came early, or offline until the
    /// next attempt. An attempt that was stopped meanwhile leaves nothing behind.
    private func attempt(_ number: Int) async {
        do {
            var subscription = try await subscribe { [weak self] update in await self?.receive(update, of: number) }
            guard case .attempting(number, _, let early) = upkeep else {
                await subscription.cancel()
                if case .stopped = upkeep { await dropSession() }
                return
            }
            backoff.reset()
            missedCheckIns = false
            // The first priming brings the events the node kept from before we followed it: history, not news.
            apply(subscription.takePriming(), publishingEvents: lastEventNumber != nil)
            upkeep = .following(subscription, attempt: number)
            setState(.online)
            for update in early { await receive(update, of: number) }
        } catch {
            guard case .attempting(number, _, _) = upkeep else { return }
            retry(after: Self.reason(error))
        }
    }

    /// Establishes a session when there is none and subscribes (to every attribute of the node by default); `deliver`
    /// hears the subscription's updates. A failure below the Interaction Model on a session kept from before drops it:
    /// the next attempt starts with a new one.
    private func subscribe(
        deliver: @escaping @Sendable (SubscriptionUpdate) async -> Void
    ) async throws -> Subscription {
        let current: NodeSession
        let established: Bool
        if let session {
            current = session
            established = false
        } else {
            current = try await establishSession()
            guard !Task.isCancelled else {
                await transport.removeSession(current.session)
                throw CancellationError()
            }
            session = current
            established = true
        }
        let client = InteractionClient(
            transport: transport, session: current.session, peerParameters: current.peerParameters, router: router)
        self.client = client
        // Commands act as soon as the session is up, while the subscription is being set up.
        wakeSessionWaiters()
        // Data version filters let the node leave out the clusters that did not change since the last subscription.
        // KeepSubscriptions false (Matter Core §8.5.1): the hub is the node's one subscriber on this fabric, so the
        // node drops every earlier subscription of ours: those of a hub process that died without closing its
        // session, which would otherwise hold the node's few subscription slots (3 a fabric at the least) until
        // their next report failed, and refuse this one RESOURCE_EXHAUSTED.
        let eventFilters =
            settings.eventPaths.isEmpty ? [] : lastEventNumber.map { [EventFilterIB(eventMinimum: $0 &+ 1)] } ?? []
        let request = SubscribeRequestMessage(
            keepSubscriptions: false, minIntervalFloor: 0, maxIntervalCeiling: settings.maxIntervalCeiling,
            attributeRequests: settings.attributePaths, eventRequests: settings.eventPaths, eventFilters: eventFilters,
            dataVersionFilters: cache.dataVersionFilters)
        do {
            return try await client.subscribe(request, timeout: settings.responseTimeout, deliver: deliver)
        } catch {
            // A session established for this attempt is one the node knows: an exchange that went unanswered lost
            // its messages (a lossy link), and a command may be using the session. One kept from before may be one
            // the node forgot (it rebooted): the next attempt starts with a new one.
            if error.status == nil && !established { await dropSession() }
            throw error
        }
    }

    /// A report is applied; a lost subscription also drops the session, as connectedhomeip does (a node that went
    /// silent may have rebooted and forgotten it), and the next attempt waits out the backoff.
    private func receive(_ update: SubscriptionUpdate, of number: Int) async {
        switch upkeep {
        case .attempting(number, let task, var early):
            early.append(update)
            upkeep = .attempting(number: number, task: task, early: early)
        case .following(_, number):
            switch update {
            case .report(let report):
                apply(report)
            case .ended(let error):
                retry(after: Self.reason(error))
                await dropSession()
            }
        case .notStarted, .attempting, .following, .waiting, .sleeping, .stopped:
            return
        }
    }

    /// Offline, and the next attempt after the backoff's delay; a sleeping device that has not let its promise pass is
    /// asleep instead, and waits for its check-in.
    private func retry(after reason: String) {
        if let period = checkInPeriod, !missedCheckIns {
            return sleep(period: period)
        }
        becomeOffline(reason)
        defer { wakeSessionWaiters() }
        var random = SystemRandomNumberGenerator()
        var timer = DeadlineTimer()
        timer.arm(
            transport.clock.now + backoff.nextDelay(using: &random), on: transport.clock,
            preferring: EventLoopExecutor.preferred
        ) { [weak self] deadline in await self?.retryIsDue(deadline) }
        upkeep = .waiting(timer)
    }

    /// Matter Core §9.16: a LIT device checks in at each wake while it has no subscription of ours. Missing two check-ins
    /// (two periods and half of one more, for a wake that comes late) is what makes it offline; until then it is
    /// asleep, and nothing is sent to it, which would only spend its battery or find it deaf.
    private func sleep(period: Duration) {
        let now = transport.clock.now
        let since = lastHeard ?? now
        let deadline = since + period * 2 + period / 2
        if case .asleep = state {
        } else {
            let seconds = Double((deadline - now).components.seconds)
            setState(.asleep(since: Date(), checkInBy: Date().addingTimeInterval(max(0, seconds))))
        }
        defer { wakeSessionWaiters() }
        var timer = DeadlineTimer()
        timer.arm(deadline, on: transport.clock, preferring: EventLoopExecutor.preferred) { [weak self] deadline in
            await self?.promiseIsDue(deadline)
        }
        upkeep = .sleeping(timer)
    }

    private func promiseIsDue(_ deadline: Instant) {
        guard case .sleeping(var timer) = upkeep, timer.fired(deadline) else { return }
        missedCheckIns = true
        retry(after: "it did not check in within two of its idle periods")
    }

    /// When the node last showed it was awake, on the wall clock; nil when not yet heard in this process.
    public var lastHeardDate: Date? {
        lastHeard.map { Date().addingTimeInterval(-Double((transport.clock.now - $0).components.seconds)) }
    }

    /// From now on the node is a Long Idle Time device that wakes at least every `period` and checks in with the hub
    /// (the hub registered with it); nil: it is reached like any other.
    public func expectCheckIns(every period: Duration?) {
        checkInPeriod = period
    }

    /// The node checked in (a Check-In the hub opened with its key): it is awake for its active time, so the
    /// subscription is set up again now; one the hub still follows is dead on the node's side, or it would not have
    /// checked in.
    public func checkedIn() async {
        lastHeard = transport.clock.now
        missedCheckIns = false
        switch upkeep {
        case .waiting(var timer), .sleeping(var timer):
            timer.cancel()
            beginAttempt()
        case .following: await renew()
        case .attempting, .notStarted, .stopped: return
        }
    }

    private func retryIsDue(_ deadline: Instant) {
        guard case .waiting(var timer) = upkeep, timer.fired(deadline) else { return }
        beginAttempt()
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

    /// A report's attributes into the cache, its changes and new events published (a read's too: `refresh`).
    func apply(_ report: InteractionReport, publishingEvents: Bool = true) {
        lastHeard = transport.clock.now
        let changed = cache.applyFollowingEndpoints(report.attributeReports)
        if !changed.isEmpty { publish(.attributes(changed)) }
        let heard = lastEventNumber
        let events = NodeEvent.events(of: report.eventReports).filter { event in
            heard.map { event.number > $0 } ?? true
        }
        if let last = events.map(\.number).max() { lastEventNumber = max(last, heard ?? 0) }
        if publishingEvents && !events.isEmpty { publish(.events(events)) }
    }

    /// Forgets the session at once, so that an attempt starting while it is being closed establishes a new one.
    private func dropSession() async {
        guard let dropped = session else { return }
        session = nil
        client = nil
        await transport.closeSession(dropped.session)
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

    /// The node now: its cache and state, read together.
    public var view: HomeModel.NodeView {
        HomeModel.NodeView(cache: cache, state: state, revision: revision)
    }

    private static func nextRevision() -> UInt64 {
        revisions.add(1, ordering: .relaxed).newValue
    }

    private func publish(_ event: Event) {
        revision = Self.nextRevision()
        observer(self, event, view)
        for stream in observers.values { stream.yield(event) }
    }

    private func removeObserver(_ id: UInt64) {
        observers[id] = nil
    }

    /// Why an attempt failed or a subscription ended; a loss without the operation, which is always the subscription
    /// ("subscription lost: no report for 7.0 s").
    private static func reason(_ error: any Error) -> String {
        if let error = error as? InteractionClientError, case .subscriptionLost = error.reason {
            return "\(error.reason)"
        }
        return "\(error)"
    }
}
