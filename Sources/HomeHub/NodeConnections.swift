import HomeRecords
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import Synchronization

/// The hub's live connections, one per commissioned node, all over the hub's link (`Hub.link`): its node takes the
/// exchanges peers open, answering CASE from the devices of the fabric and serving them its endpoint 0, and hands
/// those on the sessions the hub opened to the link's `InteractionRouter`, which gives each to its session's client.
public actor NodeConnections {
    public nonisolated let settings: NodeConnection.Settings
    let hub: Hub
    private let interfaces: [String]
    /// Where the hub's group messages go: `interfaces` unless told otherwise (a simulated network's, whose names the
    /// system's mDNS does not know).
    private let groupInterfaces: [String]
    private let events: @Sendable (NodeConnection, NodeConnection.Event, HomeModel.NodeView) -> Void
    private var connections: [UInt64: NodeConnection] = [:]
    /// Every connection's CASE attempts pass through it, so a cold start of a large home never storms.
    private let establishing = ConcurrencyLimit(HubConstants.sessionEstablishmentsInFlight)
    /// The nodes whose cache changed since it was last stored.
    private let unsaved = UnsavedCaches()
    private var saving: Task<Void, Never>?
    /// The hub's check-in registrations by node (`NodeConnections+CheckIns`), read from the store once a process.
    var registrations: [UInt64: HubStore.CheckInRegistration]?
    /// The registrations under way, by node: a command about the node's check-ins waits for its own to end.
    var registering: [UInt64: Task<Void, Never>] = [:]
    /// The LIT nodes first contact did not register with in this process, other ecosystems administering them: not
    /// asked again at each contact (an explicit registration, or a resync, may still).
    var declinedCheckIns: Set<UInt64> = []
    /// Whether the hub's node hands its Check-Ins here yet.
    private var hearsCheckIns = false

    /// `interfaces` are where nodes are looked up by DNS-SD; without any, their last known addresses are used.
    /// `events` hears every event of every connection from its start, with the node as the event left it, on the
    /// connection's executor, synchronously: the home model's feed, which holds no task per node.
    public init(
        hub: Hub, interfaces: [String], groupInterfaces: [String]? = nil,
        settings: NodeConnection.Settings = NodeConnection.Settings(),
        events: @escaping @Sendable (NodeConnection, NodeConnection.Event, HomeModel.NodeView) -> Void = { _, _, _ in }
    ) {
        self.hub = hub
        self.interfaces = interfaces
        self.groupInterfaces = groupInterfaces ?? interfaces
        self.settings = settings
        self.events = events
    }

    /// Opens the hub's link when it is not open, and has its node advertise itself, and send group messages, on the
    /// interfaces, once.
    public func startNode() async throws {
        try await prepare(hub.link().node)
    }

    private func prepare(_ node: LocalNode) async throws {
        try await node.advertise(on: interfaces)
        await node.useGroupInterfaces(groupInterfaces)
        if !hearsCheckIns {
            hearsCheckIns = true
            await node.handleCheckIns { [weak self] payload, _ in await self?.receiveCheckIn(payload) }
        }
    }

    /// The node's connection when it has one; none is started.
    public func existing(_ nodeID: UInt64) -> NodeConnection? {
        connections[nodeID]
    }

    /// The connection to a commissioned node, started on first use, from the node's stored cache.
    public func connection(to nodeID: UInt64) async throws -> NodeConnection {
        if let existing = connections[nodeID] { return existing }
        let link = try await hub.link()
        try await prepare(link.node)
        guard let node = try await hub.store.node(nodeID), node.state == .commissioned else {
            throw HubError.unknownNode(nodeID)
        }
        let stored = await hub.store.attributeCache(of: nodeID)
        // Another caller may have started it while the store was read: an actor's state can change across an await.
        if let existing = connections[nodeID] { return existing }
        let (hub, interfaces, transport, establishing, unsaved, events) = (
            hub, interfaces, link.transport, establishing, unsaved, events
        )
        let connection = NodeConnection(
            nodeID: nodeID, transport: transport, router: link.router, settings: settings,
            cache: stored ?? AttributeCache(),
            observer: { [weak self] connection, event, view in
                if case .attributes = event { unsaved.insert(connection.nodeID) }
                if case .connectivity(.online) = event {
                    Task { await self?.registerForCheckIns(connection) }
                }
                events(connection, event, view)
            }
        ) {
            try await establishing.run {
                try await hub.establishSession(to: nodeID, interfaces: interfaces, over: transport)
            }
        }
        connections[nodeID] = connection
        if let registration = await checkInRegistrations()[nodeID] {
            await connection.expectCheckIns(every: registration.period)
        }
        if saving == nil {
            saving = Task { [weak self] in await self?.saveCachesPeriodically(on: transport.clock) }
        }
        await connection.start()
        return connection
    }

    /// Every `HubTiming.attributeCacheSave`, the caches that changed, in one transaction; until cancelled.
    private func saveCachesPeriodically(on clock: any DriverClock) async {
        while (try? await clock.sleep(for: HubTiming.attributeCacheSave)) != nil {
            await saveChangedCaches()
        }
    }

    private func saveChangedCaches() async {
        let nodes = unsaved.take()
        var caches: [UInt64: AttributeCache] = [:]
        for node in nodes {
            if let connection = connections[node] { caches[node] = await connection.cache }
        }
        if !caches.isEmpty { await hub.store.saveAttributeCaches(caches) }
    }

    /// Starts a connection to every commissioned node; returns them in the store's order.
    public func connectAll() async throws -> [NodeConnection] {
        var all: [NodeConnection] = []
        for node in try await hub.store.nodes() where node.state == .commissioned {
            all.append(try await connection(to: node.nodeID))
        }
        return all
    }

    /// Stops one node's connection.
    public func stop(_ nodeID: UInt64) async {
        await connections.removeValue(forKey: nodeID)?.stop()
    }

    /// Stops every connection (each closes its session) and stores the caches that changed; the hub's link stays
    /// open.
    public func stopAll() async {
        // The periodic saver ends first, so the last save below is the only one and is done when this returns.
        saving?.cancel()
        await saving?.value
        saving = nil
        for connection in connections.values { await connection.stop() }
        await saveChangedCaches()
        connections = [:]
    }
}

/// The nodes whose cache changed since it was last stored: marked by each connection as it applies a report (on its
/// own executor, synchronously), taken as a whole by the saver.
private final class UnsavedCaches: Sendable {
    private let nodes = Mutex<Set<UInt64>>([])

    func insert(_ node: UInt64) { nodes.withLock { _ = $0.insert(node) } }

    func take() -> Set<UInt64> {
        nodes.withLock { nodes in
            defer { nodes = [] }
            return nodes
        }
    }
}
