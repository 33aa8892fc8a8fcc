import MatterInteraction
import MatterPlatform

/// The hub's live connections, one per commissioned node, all over one transport and its one `InteractionRouter`
/// (a transport's incoming exchanges can be consumed once; the router hands each to its session's client).
public actor NodeConnections {
    public nonisolated let transport: MatterTransport
    public nonisolated let router: InteractionRouter
    public nonisolated let settings: NodeConnection.Settings
    private let hub: Hub
    private let interfaces: [String]
    private var connections: [UInt64: NodeConnection] = [:]
    /// Every connection's CASE attempts pass through it, so a cold start of a large home never storms.
    private let establishing = ConcurrencyLimit(HubConstants.sessionEstablishmentsInFlight)

    /// `interfaces` are where nodes are looked up by DNS-SD; without any, their last known addresses are used.
    public init(
        hub: Hub, interfaces: [String], settings: NodeConnection.Settings = NodeConnection.Settings()
    ) throws(SocketError) {
        self.hub = hub
        self.interfaces = interfaces
        self.settings = settings
        transport = try MatterTransport()
        router = InteractionRouter(transport: transport)
    }

    /// The connection to a commissioned node, started on first use; `attributePaths` narrows its subscription to
    /// those attributes and no events (see `NodeConnection.Settings.attributePaths`).
    public func connection(to nodeID: UInt64, attributePaths: [AttributePathIB]? = nil) async throws -> NodeConnection {
        if let existing = connections[nodeID] { return existing }
        guard let node = try await hub.store.node(nodeID), node.state == .commissioned else {
            throw HubError.unknownNode(nodeID)
        }
        // Another caller may have started it while the store was read: an actor's state can change across an await.
        if let existing = connections[nodeID] { return existing }
        let (hub, interfaces, transport, establishing) = (hub, interfaces, transport, establishing)
        var settings = settings
        if let attributePaths {
            settings.attributePaths = attributePaths
            settings.eventPaths = []
        }
        let connection = NodeConnection(nodeID: nodeID, transport: transport, router: router, settings: settings) {
            try await establishing.run {
                try await hub.establishSession(to: nodeID, interfaces: interfaces, over: transport)
            }
        }
        connections[nodeID] = connection
        await connection.start()
        return connection
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

    /// Stops every connection and shuts the transport down.
    public func stopAll() async {
        for connection in connections.values { await connection.stop() }
        connections = [:]
        await transport.shutdown()
    }
}
