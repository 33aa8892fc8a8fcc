import Foundation
import HomeRecords
import MatterInteraction
import MatterPlatform
import MatterTLV
import Synchronization

/// The home in memory, one per store in a process: its structures, rooms, commissioned nodes with their devices
/// (endpoints, device types, semantic tags), and each followed node's connectivity and attribute cache. Reads never
/// touch the store. Writes go to the store first; once committed, the rows the commit may have changed are read back
/// and compared with memory, and every difference becomes a typed `Change` — so a write the store refuses changes
/// nothing here, and what memory holds is always what was committed. Commits by any connection of this process are
/// heard at once (`HubStore.observeCommits`); another process's, through the store's change marker.
public final class HomeModel: Sendable {
    /// The home at one moment (`HomeSnapshot`).
    public typealias Snapshot = HomeSnapshot
    /// A node as its live connection last reported it (`NodeView`).
    public typealias NodeView = HomeRecords.NodeView
    /// What changed (`HomeChange`).
    public typealias Change = HomeChange

    /// Which changes a listener hears.
    public enum Scope: Sendable, Hashable {
        /// Everything except attribute values and events: the home's shape, names, rooms, device types and
        /// connectivity.
        case home
        /// Everything about one node, attribute values and events included.
        case node(UInt64)
        /// Everything.
        case all
    }

    /// What a listener receives: the changes of one commit or report, in order; or that it fell behind (its
    /// backlog overflowed) and must read the model afresh.
    public enum Update: Sendable {
        case changes([Change])
        case fellBehind
    }

    struct Listener {
        let scope: Scope
        let continuation: AsyncStream<Delivery>.Continuation
        var sequence: UInt64 = 0
    }

    /// A batch as one listener received it, numbered so the listener sees when older ones were dropped.
    struct Delivery: Sendable {
        let sequence: UInt64
        let changes: [Change]
    }

    struct State {
        var snapshot = Snapshot()
        /// The store's change counter that memory reflects; nil when unknown (read the whole store next time).
        var counter: Int64?
        /// Why the last read of the store failed (a damaged row): memory is behind the store until a read succeeds.
        var failure: HubStoreError?
        var listeners: [Int: Listener] = [:]
        var nodeListeners: [UInt64: Set<Int>] = [:]
        var homeListeners: Set<Int> = []
        var nextListener = 0
        var observers: [@Sendable (Snapshot, [Change]) -> Void] = []
        /// A mirror's hub went away: why. Memory stays as it was last told, and says it is no longer current.
        var sourceLost: String?
        /// A mirror's hub cannot read its store (`Change.unreadable`): why.
        var mirroredFailure: String?
    }

    /// Nil in a mirror (`init(mirroring:)`): the hub process owns the store.
    let store: HubStore?
    let state: Mutex<State>
    /// Listeners whose sequence ended, to be removed at the next `changes` or `listenerCount`. A stream ends holding
    /// its own lock, while `publish` yields to it holding the model's: taking the model's lock there would lock the
    /// two in the opposite order (a task cancelled while a change was published deadlocked a test run). This lock is
    /// always the innermost one.
    private let endedListeners = Mutex<Set<Int>>([])
    /// Serializes reading the store back, so an older read is never applied after a newer one.
    private let reloading = Mutex(())
    private let commits = Mutex<StoreCommitToken?>(nil)
    private let watch = Mutex<FileChangeWatch?>(nil)

    /// Loads the home from the store, then follows its commits.
    public convenience init(store: HubStore) async throws(HubStoreError) {
        let (snapshot, counter) = try await store.onQueue { () throws(HubStoreError) in try Self.read(store) }
        self.init(store: store, state: State(snapshot: snapshot, counter: counter))
        let token = store.observeCommits { [weak self] commit in self?.committed(commit) }
        commits.withLock { $0 = token }
        let directory = (store.path as NSString).deletingLastPathComponent
        // Other processes' commits: the handler hands the re-read to the store's queue. Without inotify (out of
        // watches) this process sees only its own writes.
        let fileWatch = try? FileChangeWatch(directory: directory.isEmpty ? "." : directory) { [weak self] in
            self?.storeMayHaveChanged()
        }
        watch.withLock { $0 = fileWatch }
    }

    init(store: HubStore? = nil, state: State) {
        self.store = store
        self.state = Mutex(state)
    }

    /// The home now.
    public var snapshot: Snapshot {
        state.withLock { $0.snapshot }
    }

    /// Runs `body` on the home now, while no change can land: for a projection that must be built from the same
    /// snapshot its observer (`observe`) then keeps up to date. Keep it short; it holds every writer and report.
    public func withSnapshot<Result>(_ body: (Snapshot) -> Result) -> Result {
        state.withLock { body($0.snapshot) }
    }

    /// `withSnapshot`, with why the store could not be read then (`failure`): what a mirror starts from.
    public func withSnapshotAndFailure<Result>(_ body: (Snapshot, HubStoreError?) -> Result) -> Result {
        state.withLock { body($0.snapshot, $0.failure) }
    }

    /// Why memory could not take in the store's last change (it holds a row this build cannot read); nil when it
    /// reflects the store.
    public var failure: HubStoreError? {
        state.withLock { $0.failure }
    }

    public func devices(of nodeID: UInt64) -> [DeviceRecord]? {
        state.withLock { $0.snapshot.devices[nodeID] }
    }

    public func view(of nodeID: UInt64) -> NodeView? {
        state.withLock { $0.snapshot.views[nodeID] }
    }

    // MARK: Listening

    /// The changes in `scope` from now on, until the sequence's task is cancelled or its iterator released.
    public func changes(_ scope: Scope) -> Changes {
        let (stream, continuation) = AsyncStream<Delivery>.makeStream(
            bufferingPolicy: .bufferingNewest(HubConstants.modelListenerBacklog))
        let id = state.withLock { state in
            removeEndedListeners(&state)
            state.nextListener += 1
            let id = state.nextListener
            var listener = Listener(scope: scope, continuation: continuation)
            // A mirror whose hub already went away tells a listener that comes late at once, as `sourceWentAway`
            // told those before it: a consumer that waited for a change would otherwise wait for ever.
            if state.sourceLost != nil {
                listener.sequence += 2
                continuation.yield(Delivery(sequence: listener.sequence, changes: []))
            }
            state.listeners[id] = listener
            switch scope {
            case .node(let nodeID): state.nodeListeners[nodeID, default: []].insert(id)
            case .home, .all: state.homeListeners.insert(id)
            }
            return id
        }
        let release = ListenerRelease { [weak self] in self?.removeListener(id) }
        continuation.onTermination = { _ in release.run() }
        return Changes(stream: stream, release: release)
    }

    /// How many listeners hold a place: what a released or cancelled query must give back.
    public var listenerCount: Int {
        state.withLock { state in
            removeEndedListeners(&state)
            return state.listeners.count
        }
    }

    /// Calls `observer` with every batch of changes, synchronously and in order, with the snapshot they led to:
    /// for projections that must be current when the write that caused them returns.
    public func observe(_ observer: @escaping @Sendable (Snapshot, [Change]) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// The listener's sequence ended (cancelled, or let go of): noted under the innermost lock only.
    private func removeListener(_ id: Int) {
        endedListeners.withLock { _ = $0.insert(id) }
    }

    /// Removes the listeners whose sequences ended; a yield to one meanwhile went nowhere.
    private func removeEndedListeners(_ state: inout State) {
        let ended = endedListeners.withLock { ended in
            defer { ended = [] }
            return ended
        }
        for id in ended {
            guard let listener = state.listeners.removeValue(forKey: id) else { continue }
            if case .node(let nodeID) = listener.scope {
                state.nodeListeners[nodeID]?.remove(id)
                if state.nodeListeners[nodeID]?.isEmpty == true { state.nodeListeners[nodeID] = nil }
            } else {
                state.homeListeners.remove(id)
            }
        }
    }

    // MARK: Live reports

    /// The node's connection reported: its connectivity, for `changed` paths new attribute values, and new events.
    /// `changed` names every path whose value in `view` may differ from the view the model holds: a value that
    /// changed outside it would be taken in silently, and no listener would ever hear of it. A view in place of none
    /// (or of one with no values) is news in every value it holds, whatever its report changed: a connection starts
    /// from the stored cache, and a client's mirror learns values only from changes. A view older than the one held
    /// (`revision`) is not taken: what it shows is already in, newer; only its events are news.
    public func nodeReported(
        _ nodeID: UInt64, view: NodeView, changed: Set<ConcreteAttributePath>, events: [NodeEvent] = []
    ) {
        state.withLock { state in
            // A node that left the home meanwhile keeps no view.
            guard state.snapshot.devices[nodeID] != nil else { return }
            var changes: [Change] = []
            let previous = state.snapshot.views[nodeID]
            if previous.map({ view.revision >= $0.revision }) ?? true {
                state.snapshot.views[nodeID] = view
                if previous?.state != view.state { changes.append(.connectivity(nodeID, view.state)) }
                var byEndpoint: [UInt16: [ConcreteAttributePath: TLVElement?]] = [:]
                // A path the model already held at this value is no change (a report that repeats what a first
                // contact took in).
                let offered = (previous?.cache.paths.isEmpty ?? true) ? changed.union(view.cache.paths) : changed
                for path in offered where !(previous?.cache.sameValue(path, as: view.cache) ?? false) {
                    byEndpoint[path.endpoint, default: [:]][path] = .some(
                        view.cache.value(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute))
                }
                for (endpoint, values) in byEndpoint.sorted(by: { $0.key < $1.key }) {
                    changes.append(.attributes(nodeID: nodeID, endpoint: endpoint, values: values))
                }
            }
            if !events.isEmpty {
                var recent = state.snapshot.recentEvents[nodeID, default: []] + events
                recent.removeFirst(max(0, recent.count - HubConstants.recentEventsPerNode))
                state.snapshot.recentEvents[nodeID] = recent
                changes += events.map { .event(nodeID: nodeID, $0) }
            }
            Self.publish(changes, in: &state)
        }
    }

    /// The node is no longer followed: what its connection reported is dropped (its connectivity becomes unknown).
    public func forgetView(of nodeID: UInt64) {
        state.withLock { state in
            state.snapshot.recentEvents[nodeID] = nil
            guard state.snapshot.views.removeValue(forKey: nodeID) != nil else { return }
            Self.publish([.nodeUpdated(nodeID)], in: &state)
        }
    }

    // MARK: Following the store

    private func committed(_ commit: StoreCommit) {
        reloading.withLock { _ in
            let known = state.withLock { $0.counter }
            if let before = commit.counterBefore, before == known, let nodes = commit.nodes {
                reload(nodes: nodes, counter: commit.counterAfter)
            } else {
                reload(nodes: nil)
            }
        }
    }

    /// Another process (or a connection this process does not observe) may have written: re-read everything when
    /// the change counter moved past what memory reflects.
    private func storeMayHaveChanged() {
        store?.queue.async { [weak self] in
            guard let self, let store else { return }
            reloading.withLock { _ in
                guard let current = try? store.changeCounterOnQueue(), current != state.withLock({ $0.counter })
                else { return }
                reload(nodes: nil)
            }
        }
    }

    /// Reads back what a commit may have changed (`nodes`, or everything when nil) and takes the differences in.
    /// `counter` is the store's change counter after a partial read; a whole read takes its own.
    private func reload(nodes: Set<UInt64>?, counter: Int64? = nil) {
        guard let store else { return }
        var fresh = Snapshot()
        var counter = counter
        do {
            if let nodes {
                fresh.rooms = try store.roomsOnQueue()
                fresh.structures = try store.structuresOnQueue()
                fresh.groups = try store.groupsOnQueue()
                for nodeID in nodes {
                    let devices = try store.devicesOnQueue(of: nodeID)
                    fresh.devices[nodeID] = devices
                    // A node with devices is commissioned: only one without can be an interrupted one (a rename,
                    // a report's commit, pays no second query).
                    if devices.isEmpty { fresh.interrupted[nodeID] = try store.interruptedOnQueue(nodeID) }
                }
            } else {
                let (whole, wholeCounter) = try Self.read(store)
                (fresh, counter) = (whole, wholeCounter)
            }
        } catch {
            // The commit is in the store; memory catches up on the next whole read, and says why it is behind.
            state.withLock { state in
                state.counter = nil
                let known = state.failure != nil
                state.failure = error
                if !known { Self.publish([.unreadable(error.description)], in: &state) }
            }
            return
        }
        state.withLock { state in
            var changes: [Change] = []
            // Only a whole read proves memory reflects the store again.
            if nodes == nil, state.failure != nil {
                state.failure = nil
                changes.append(.unreadable(nil))
            }
            changes += Self.apply(
                structures: fresh.structures, rooms: fresh.rooms, groups: fresh.groups, to: &state.snapshot)
            let touched =
                nodes
                ?? Set(state.snapshot.devices.keys).union(fresh.devices.keys).union(state.snapshot.interrupted.keys)
                .union(fresh.interrupted.keys)
            for nodeID in touched.sorted() {
                changes += Self.apply(devices: fresh.devices[nodeID] ?? [], of: nodeID, to: &state.snapshot)
                changes += Self.apply(interrupted: fresh.interrupted[nodeID], of: nodeID, to: &state.snapshot)
            }
            state.counter = counter
            Self.publish(changes, in: &state)
        }
    }

    /// The whole home as the store holds it, read between two equal change counters so that its several reads see
    /// one state.
    private static func read(_ store: HubStore) throws(HubStoreError) -> (Snapshot, Int64) {
        for _ in 0..<HubConstants.consistentReadAttempts {
            let before = try store.changeCounterOnQueue()
            var snapshot = Snapshot()
            snapshot.structures = try store.structuresOnQueue()
            snapshot.rooms = try store.roomsOnQueue()
            snapshot.groups = try store.groupsOnQueue()
            for device in try store.devicesOnQueue() { snapshot.devices[device.id.nodeID, default: []].append(device) }
            for node in try store.interruptedOnQueue() { snapshot.interrupted[node.nodeID] = node }
            if try store.changeCounterOnQueue() == before { return (snapshot, before) }
        }
        throw .changing(attempts: HubConstants.consistentReadAttempts)
    }

    // MARK: Differences

    static func apply(
        structures: [StructureRecord], rooms: [RoomRecord], groups: [GroupRecord], to snapshot: inout Snapshot
    ) -> [Change] {
        var changes: [Change] = []
        changes += differences(
            snapshot.structures, structures, added: Change.structureAdded, changed: Change.structureRenamed,
            removed: Change.structureRemoved)
        changes += differences(
            snapshot.rooms, rooms, added: Change.roomAdded, changed: Change.roomRenamed, removed: Change.roomRemoved)
        changes += differences(
            snapshot.groups, groups, added: Change.groupAdded, changed: Change.groupChanged,
            removed: Change.groupRemoved)
        snapshot.structures = structures
        snapshot.rooms = rooms
        snapshot.groups = groups
        return changes
    }

    private static func differences<Record: Identifiable & Equatable>(
        _ old: [Record], _ new: [Record], added: (Record.ID) -> Change, changed: (Record.ID) -> Change,
        removed: (Record.ID) -> Change
    ) -> [Change] {
        guard old != new else { return [] }
        let before = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(new.map(\.id))
        var changes: [Change] = []
        for record in new {
            if let previous = before[record.id] {
                if previous != record { changes.append(changed(record.id)) }
            } else {
                changes.append(added(record.id))
            }
        }
        for record in old where !after.contains(record.id) { changes.append(removed(record.id)) }
        return changes
    }

    /// Replaces one node's devices (empty: the node left the home) and names what differs.
    static func apply(devices new: [DeviceRecord], of nodeID: UInt64, to snapshot: inout Snapshot) -> [Change] {
        let old = snapshot.devices[nodeID] ?? []
        guard old != new else { return [] }
        var changes: [Change] = []
        let before = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(new.map(\.id))
        if let first = old.first, let now = new.first, first.node != now.node { changes.append(.nodeUpdated(nodeID)) }
        var typesChanged = false
        for device in new {
            guard let previous = before[device.id] else {
                changes.append(.deviceAdded(device.id))
                continue
            }
            if previous.name != device.name { changes.append(.deviceRenamed(device.id)) }
            if previous.roomID != device.roomID { changes.append(.deviceMoved(device.id)) }
            if previous.deviceTypes != device.deviceTypes || previous.rootDeviceTypes != device.rootDeviceTypes
                || previous.semanticTags != device.semanticTags
            {
                typesChanged = true
            }
        }
        if typesChanged { changes.append(.typesChanged(nodeID)) }
        for device in old where !after.contains(device.id) { changes.append(.deviceRemoved(device.id)) }
        if new.isEmpty {
            snapshot.devices[nodeID] = nil
            snapshot.views[nodeID] = nil
            snapshot.recentEvents[nodeID] = nil
        } else {
            snapshot.devices[nodeID] = new
        }
        return changes
    }

    /// Replaces what the model holds of a node an interrupted commissioning left (nil: it is not one, or no longer).
    static func apply(interrupted new: NodeRecord?, of nodeID: UInt64, to snapshot: inout Snapshot) -> [Change] {
        guard snapshot.interrupted[nodeID] != new else { return [] }
        snapshot.interrupted[nodeID] = new
        return [.interruptedNode(nodeID)]
    }

    /// Tells the observers, then every listener whose scope the changes touch, in order. Under the state lock, so
    /// two batches never reach a listener out of order (yielding to a stream only queues the batch).
    static func publish(_ changes: [Change], in state: inout State) {
        guard !changes.isEmpty else { return }
        for observer in state.observers { observer(state.snapshot, changes) }
        var touched: [Int: [Change]] = [:]
        for change in changes {
            if let nodeID = change.nodeID {
                for id in state.nodeListeners[nodeID] ?? [] { touched[id, default: []].append(change) }
            }
            for id in state.homeListeners {
                guard let listener = state.listeners[id] else { continue }
                if listener.scope == .all || !change.isReport { touched[id, default: []].append(change) }
            }
        }
        for (id, batch) in touched {
            guard var listener = state.listeners[id] else { continue }
            listener.sequence += 1
            listener.continuation.yield(Delivery(sequence: listener.sequence, changes: batch))
            state.listeners[id] = listener
        }
    }

    /// One listener's updates. A gap in the numbering means the backlog overflowed: `.fellBehind`.
    /// Its listener holds its place for as long as the sequence or an iterator of it lives.
    public struct Changes: AsyncSequence, Sendable {
        let stream: AsyncStream<Delivery>
        let release: ListenerRelease

        public func makeAsyncIterator() -> Iterator {
            Iterator(deliveries: stream.makeAsyncIterator(), release: release)
        }

        public struct Iterator: AsyncIteratorProtocol {
            var deliveries: AsyncStream<Delivery>.Iterator
            let release: ListenerRelease
            var last: UInt64 = 0

            public mutating func next() async -> Update? {
                guard let delivery = await deliveries.next() else { return nil }
                defer { last = delivery.sequence }
                return delivery.sequence == last + 1 ? .changes(delivery.changes) : .fellBehind
            }
        }
    }
}

/// Gives a listener's place back once, when the last holder of its sequence goes or its task is cancelled.
final class ListenerRelease: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
    }

    func run() {
        action.withLock { action in
            defer { action = nil }
            return action
        }?()
    }

    deinit {
        run()
    }
}
