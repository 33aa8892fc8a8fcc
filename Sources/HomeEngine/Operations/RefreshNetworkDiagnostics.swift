import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction

/// Reads each reachable node's Thread and Wi-Fi Network Diagnostics afresh (the network topology's `refresh`): the
/// hub's subscriptions bring them within a max interval, and a person who asks for the graph now wants it now. A few
/// nodes at a time (`HubEngineLimits.diagnosticsReads`), all within `HubEngineTiming.diagnosticsRefresh`; a node that
/// has not answered by then keeps what its subscription last brought. Sleeping and offline nodes are not asked.
public struct RefreshNetworkDiagnostics: HubOperation {
    public static let name = "refreshNetworkDiagnostics"

    public init() {}

    public struct Result: Codable, Sendable, Hashable {
        /// The nodes that answered.
        public let refreshed: [UInt64]
        /// The nodes asked that did not answer in time, or failed.
        public let unanswered: [UInt64]
    }

    public var access: HubAccess { .member }
    public var summary: String { "read the devices' network diagnostics again" }

    /// Thread and Wi-Fi Network Diagnostics, on the root endpoint as the specification puts them.
    static let clusters: [ClusterID] = [ThreadNetworkDiagnosticsCluster.id, WiFiNetworkDiagnosticsCluster.id]

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Result {
        let snapshot = scope.engine.model.snapshot
        let connections = scope.engine.live.nodeConnections()
        var asked: [(UInt64, [AttributePathIB])] = []
        for nodeID in snapshot.devices.keys.sorted() {
            guard let view = snapshot.views[nodeID], case .online = view.state else { continue }
            let served = (try? view.cache.value(DescriptorCluster.Attributes.serverList, endpoint: 0)) ?? []
            let paths = Self.clusters.filter { served.contains($0) }.map {
                AttributePathIB(endpoint: 0, cluster: $0.rawValue)
            }
            if !paths.isEmpty { asked.append((nodeID, paths)) }
        }
        let refreshed = await withTaskGroup(of: UInt64?.self) { group in
            group.addTask {
                try? await Task.sleep(for: HubEngineTiming.diagnosticsRefresh)
                return nil
            }
            var pending = asked[...]
            func askNext() {
                guard let (nodeID, paths) = pending.popFirst() else { return }
                group.addTask {
                    guard let connection = await connections.existing(nodeID),
                        (try? await connection.refresh(paths)) != nil
                    else { return 0 }
                    return nodeID
                }
            }
            for _ in 0..<HubEngineLimits.diagnosticsReads { askNext() }
            var refreshed: [UInt64] = []
            var finished = 0
            while finished < asked.count, let outcome = await group.next() {
                // The deadline's task ends the wait: the reads still out are cancelled.
                guard let nodeID = outcome else { break }
                finished += 1
                if nodeID != 0 { refreshed.append(nodeID) }
                askNext()
            }
            group.cancelAll()
            return refreshed
        }
        return Result(
            refreshed: refreshed.sorted(), unanswered: asked.map(\.0).filter { !refreshed.contains($0) })
    }
}
