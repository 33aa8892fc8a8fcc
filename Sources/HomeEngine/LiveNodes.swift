import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction
import MatterPlatform
import Synchronization

/// The hub's live connections as the Home API sees them. Nothing connects until a device type is subscribed or a
/// command is sent; from then on the node's connection is kept up, and every change it reports (attributes,
/// connectivity) goes into the home model, which tells the queries that follow that node.
final class LiveNodes: Sendable {
    private typealias Feed = SerialInbox<(NodeConnection, NodeConnection.Event, HomeModel.NodeView)>

    private struct State {
        var connections: NodeConnections?
        /// Each followed node's events, in order, into the model: a task runs only while some wait.
        var feeds: [UInt64: Feed] = [:]
        /// Starts the connection of each node the home gains, while every node is followed.
        var follower: Task<Void, Never>?
        /// The nodes whose store endpoints were reconciled with their cache at their first contact in this process.
        var reconciledAtFirstContact: Set<UInt64> = []
    }

    private let hub: Hub
    let model: HomeModel
    private let interfaces: [String]
    private let groupInterfaces: [String]?
    private let settings: NodeConnection.Settings
    private let state = Mutex(State())

    init(
        hub: Hub, model: HomeModel, interfaces: [String], groupInterfaces: [String]?, settings: NodeConnection.Settings
    ) {
        self.hub = hub
        self.model = model
        self.interfaces = interfaces
        self.groupInterfaces = groupInterfaces
        self.settings = settings
    }

    /// The node's connection, started on first use, at once: a command on it acts as soon as its session is up
    /// (`NodeConnection.sessionClient`), without waiting for the subscription.
    func connection(to nodeID: UInt64) async throws(HomeError) -> NodeConnection {
        let connection = try await start(nodeID)
        await refresh(nodeID, from: connection)
        return connection
    }

    /// Follows the node live, and returns once it has had its first contact (its subscription's priming, or its first
    /// failure), or after `HubEngineTiming.firstContact`.
    func followUntilFirstContact(_ nodeID: UInt64) async throws(HomeError) {
        let connection = try await start(nodeID)
        await Self.waitAtMostFirstContact { try? await connection.connected() }
        await refresh(nodeID, from: connection)
    }

    /// The node rebooted (`NodeConnection.renew`): a followed node is subscribed to again at once.
    func renew(_ nodeID: UInt64) async {
        guard let connections = state.withLock({ $0.connections }) else { return }
        await connections.existing(nodeID)?.renew()
    }

    /// Starts the hub's own node, which otherwise starts with the first connection.
    func startNode() async throws(HomeError) {
        do {
            try await connections().startNode()
        } catch {
            throw HomeError(.unavailable, "the hub's Matter node cannot start: \(error)")
        }
    }

    /// Starts following every node of `nodeIDs`, each shown at once from its stored cache, and returns once each has
    /// had its first try (or after `HubEngineTiming.firstContact`). One wait for all: a large home's cold start holds no
    /// task per node while its connections take their turns.
    func follow(_ nodeIDs: [UInt64]) async {
        let changes = model.changes(.home)
        for nodeID in nodeIDs {
            guard let connection = try? await start(nodeID) else { continue }
            await refresh(nodeID, from: connection)
        }
        let model = model
        let firstTried = { @Sendable in
            !nodeIDs.contains { nodeID in
                guard case .connecting? = model.view(of: nodeID)?.state else { return false }
                return true
            }
        }
        guard !firstTried() else { return }
        await Self.waitAtMostFirstContact { for await _ in changes where firstTried() { return } }
    }

    /// The node's connection, started on first use, with its feed into the model opened before it starts, so its
    /// every event reaches the model (a button pressed right after the node was added among them).
    private func start(_ nodeID: UInt64) async throws(HomeError) -> NodeConnection {
        try checkReachable(nodeID)
        openFeed(nodeID)
        do {
            return try await connections().connection(to: nodeID)
        } catch {
            throw HomeError(opening: error)
        }
    }

    /// Returns once `wait` has, or once `HubEngineTiming.firstContact` has passed.
    private static func waitAtMostFirstContact(_ wait: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await wait() }
            group.addTask { try? await Task.sleep(for: HubEngineTiming.firstContact) }
            await group.next()
            group.cancelAll()
        }
    }

    /// A node with no known address, when no interface is there to look it up on, cannot be reached: it is offline
    /// without opening a transport for it. A node no longer in the home is not connected to at all.
    private func checkReachable(_ nodeID: UInt64) throws(HomeError) {
        // A device removed meanwhile (by this process or another): nothing to connect to, ever.
        guard let node = model.devices(of: nodeID)?.first?.node else {
            throw HomeError(.notFound, "node \(HubEngine.nodeDeviceID(nodeID)) is no longer in the home")
        }
        guard node.addresses.isEmpty && interfaces.isEmpty else { return }
        let reason = "no address is known for it and no network interface is configured to look it up"
        if model.view(of: nodeID) == nil {
            model.nodeReported(
                nodeID,
                view: HomeModel.NodeView(cache: AttributeCache(), state: .offline(since: Date(), reason: reason)),
                changed: [])
        }
        throw HomeError(.unavailable, "node \(HubEngine.nodeDeviceID(nodeID)): \(reason)")
    }

    /// Stops following one node (it is leaving the home) and drops what was known of it.
    func forget(_ nodeID: UInt64) async {
        let (connections, feed) = state.withLock { state in
            state.reconciledAtFirstContact.remove(nodeID)
            return (state.connections, state.feeds.removeValue(forKey: nodeID))
        }
        feed?.close()
        await connections?.stop(nodeID)
        model.forgetView(of: nodeID)
    }

    /// Follows each node the home gains from now on (its first device added), until `stop()`.
    func followAdded(from changes: HomeModel.Changes) {
        state.withLock { state in
            guard state.follower == nil else { return }
            state.follower = Task { [weak self] in
                for await update in changes {
                    guard let self, case .changes(let changes) = update else { continue }
                    for case .deviceAdded(let id) in changes {
                        Task { _ = try? await self.connection(to: id.nodeID) }
                    }
                }
            }
        }
    }

    /// Gives the hub's fabric `label` on every node of the home, in the background and best effort (a node out of reach
    /// keeps the old one until the next rename): UpdateFabricLabel over each node's live connection.
    func relabelFabric(_ label: String) {
        for nodeID in model.snapshot.devices.keys {
            Task {
                guard let connection = try? await connection(to: nodeID) else { return }
                _ = try? await connection.invoke(
                    OperationalCredentialsCluster.Commands.UpdateFabricLabel(label: label), endpoint: 0)
            }
        }
    }

    /// Stops every connection; a later subscription or command starts them again.
    func stop() async {
        let (connections, feeds, follower) = state.withLock { state in
            defer { state = State() }
            return (state.connections, state.feeds, state.follower)
        }
        follower?.cancel()
        feeds.values.forEach { $0.close() }
        await connections?.stopAll()
        for nodeID in model.snapshot.views.keys { model.forgetView(of: nodeID) }
    }

    /// The hub's live connections (started on first use): for what concerns a node's connection beyond following it
    /// (its check-in registration).
    func nodeConnections() -> NodeConnections { connections() }

    private func connections() -> NodeConnections {
        state.withLock { state in
            if let connections = state.connections { return connections }
            let connections = NodeConnections(
                hub: hub, interfaces: interfaces, groupInterfaces: groupInterfaces, settings: settings
            ) {
                [weak self] connection, event, view in
                self?.state.withLock { $0.feeds[connection.nodeID] }?.deliver((connection, event, view))
            }
            state.connections = connections
            return connections
        }
    }

    /// The node's feed into the model, opened once: every event its connection publishes is taken in, in order.
    private func openFeed(_ nodeID: UInt64) {
        state.withLock { state in
            guard state.feeds[nodeID] == nil else { return }
            state.feeds[nodeID] = Feed { [weak self] connection, event, view in
                await self?.take(event, view, from: connection)
            }
        }
    }

    /// One event of the node's connection, with the node as that event left it.
    private func take(
        _ event: NodeConnection.Event, _ view: HomeModel.NodeView, from connection: NodeConnection
    ) async {
        let nodeID = connection.nodeID
        var changed: Set<ConcreteAttributePath> = []
        var events: [NodeEvent] = []
        switch event {
        case .attributes(let paths):
            changed = paths
            if paths.contains(where: { $0.cluster == DescriptorCluster.id.rawValue }) {
                await reconcile(nodeID, from: view.cache)
            }
        case .events(let heard): events = heard
        case .connectivity(.online):
            // At the node's first contact in this process, the store's endpoints follow its Descriptor as primed:
            // the priming leaves out a Descriptor the cache already had (data version filters), and the store may be
            // behind the cache (a hub that stopped between the two writes, a store written by an older build).
            // Later changes of the Descriptor come as reports.
            if state.withLock({ $0.reconciledAtFirstContact.insert(nodeID).inserted }) {
                await reconcile(nodeID, from: view.cache)
                placeUpdateProvider(on: connection, cache: view.cache, hubNodeID: hub.authority.hubNodeID)
            }
        case .connectivity: break
        }
        model.nodeReported(nodeID, view: view, changed: changed, events: events)
    }

    /// The node's Descriptor clusters changed, were first heard, or the node had its first contact: the store's
    /// endpoints, tags and devices follow them, so a bridge's new bridged device appears (under its bridge's label for it), and one it dropped goes. A
    /// cache that does not describe the whole node (a subscription to some paths only) changes nothing.
    private func reconcile(_ nodeID: UInt64, from cache: AttributeCache) async {
        guard let description = try? NodeInterview.describe(cache) else { return }
        _ = try? await hub.store.reconcileEndpoints(of: nodeID, with: description) { endpoint in
            // A bridged device is called what its bridge calls it; otherwise the product's name and the endpoint.
            let fallback = "\(description.productName) \(endpoint?.endpoint ?? 0)"
            return (try? HomeName.validated(endpoint?.label ?? fallback, naming: "device")) ?? fallback
        }
    }

    /// The node as its connection holds it now, every path offered as changed; the model keeps only those whose
    /// value is new to it. A cache taken in silently would reach the hub's own model but never its clients' mirrors,
    /// which learn values only from changes (a client that asked right after the first contact would see the node
    /// online with no clusters). The events of the connection's feed that this view is ahead of change
    /// nothing but their events (`HomeModel.nodeReported`).
    private func refresh(_ nodeID: UInt64, from connection: NodeConnection) async {
        let view = await connection.view
        model.nodeReported(nodeID, view: view, changed: Set(view.cache.paths))
    }
}
