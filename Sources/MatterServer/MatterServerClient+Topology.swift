import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import MatterDiscovery
import MatterPlatform
import Synchronization

/// Schema 13's `get_network_topology` and `network_topology_updated`: the graph `MatterServerTopology` builds from the
/// live model and the border routers last heard.
extension MatterServerClient {
    /// The graph now; `refresh` first reads the nodes' Thread and Wi-Fi Network Diagnostics afresh (a few at a time,
    /// under a deadline: `RefreshNetworkDiagnostics`) while the network is asked for its border routers again. The
    /// client hears `network_topology_updated` from now on.
    func networkTopology(_ id: String, _ args: TopologyArguments) {
        work { [self] in
            let interfaces = engine.commissioning.interfaces
            if args.refresh == true {
                async let reread = try? engine.perform(RefreshNetworkDiagnostics(), caller: caller)
                if !interfaces.isEmpty,
                    let routers = try? await MulticastDNSQuerier().browseThreadBorderRouters(
                        interfaces: interfaces, timeout: Self.discoveryWindow)
                {
                    peers.topology.heard(routers)
                }
                _ = await reread
            }
            hearsTopology.withLock { $0 = true }
            peers.topology.follow(engine.model) { [weak peers] event in peers?.broadcastTopology(event) }
            send(Self.reply(id, peers.topology.graph(of: engine.model.snapshot).rendered))
        }
    }
}

struct TopologyArguments: Decodable, Sendable {
    let refresh: Bool?
}

/// The topology's changes, for the clients that asked for it: after a change that can move the graph (a node's
/// network diagnostics, Network Commissioning, Descriptor, availability, a node added or removed), the graph is built
/// again once things settle and sent when it differs from the last one sent.
final class TopologyFeed: Sendable {
    /// How long the graph waits after a change before it is built again: a subscription's report brings a node's
    /// tables in bursts, and a client redraws once per burst (matterjs-server's event is debounced too).
    static let settle: Duration = .seconds(2)

    private struct State {
        var follower: Task<Void, Never>?
        var pending: Task<Void, Never>?
        var lastSent: JSONValue?
        var borderRouters: [ThreadBorderRouter] = []
    }

    private let state = Mutex(State())

    /// The border routers last heard.
    var borderRouters: [ThreadBorderRouter] { state.withLock { $0.borderRouters } }

    /// The border routers a browse just heard.
    func heard(_ routers: [ThreadBorderRouter]) {
        state.withLock { $0.borderRouters = routers }
    }

    func graph(of snapshot: HomeModel.Snapshot, collectedAt: UInt64? = nil) -> JSONValue {
        MatterServerTopology.build(
            nodes: MatterServerTopology.nodes(of: snapshot), borderRouters: state.withLock { $0.borderRouters },
            collectedAt: collectedAt ?? UInt64(Date().timeIntervalSince1970 * 1000))
    }

    /// Starts following the model (once): each settled change that moves the graph goes to `send` as the event.
    func follow(_ model: HomeModel, send: @escaping @Sendable (String) -> Void) {
        guard state.withLock({ $0.follower == nil }) else { return }
        // Built before the lock is taken: the graph reads the border routers under it.
        let now = graph(of: model.snapshot, collectedAt: 0)
        state.withLock { state in
            guard state.follower == nil else { return }
            state.lastSent = now
            let changes = model.changes(.all)
            state.follower = Task { [weak self] in
                for await update in changes {
                    guard case .changes(let batch) = update, batch.contains(where: Self.movesTheGraph) else {
                        if case .fellBehind = update { self?.changed(model, send) }
                        continue
                    }
                    self?.changed(model, send)
                }
            }
        }
    }

    func stop() {
        let (follower, pending) = state.withLock { state in
            defer { (state.follower, state.pending) = (nil, nil) }
            return (state.follower, state.pending)
        }
        follower?.cancel()
        pending?.cancel()
    }

    /// A change came: one build after `settle`, whatever else comes meanwhile.
    private func changed(_ model: HomeModel, _ send: @escaping @Sendable (String) -> Void) {
        state.withLock { state in
            guard state.pending == nil else { return }
            state.pending = Task { [weak self] in
                try? await Task.sleep(for: Self.settle)
                guard !Task.isCancelled, let self else { return }
                // Compared without its time: only a graph that moved is sent.
                let settled = graph(of: model.snapshot, collectedAt: 0)
                let moved = self.state.withLock { state -> Bool in
                    state.pending = nil
                    guard settled != state.lastSent else { return false }
                    state.lastSent = settled
                    return true
                }
                guard moved else { return }
                send(MatterServerClient.event("network_topology_updated", graph(of: model.snapshot)))
            }
        }
    }

    private static let clusters: Set<UInt32> = [
        0x0035, 0x0036, 0x0037,  // Thread, Wi-Fi and Ethernet Network Diagnostics
        0x0031,  // Network Commissioning (the joined network)
        0x001D,  // Descriptor (the clusters a node serves; a bridge)
    ]

    private static func movesTheGraph(_ change: HomeModel.Change) -> Bool {
        switch change {
        case .connectivity, .deviceAdded, .deviceRemoved: true
        case .attributes(_, _, let values): values.keys.contains { clusters.contains($0.cluster) }
        default: false
        }
    }
}
