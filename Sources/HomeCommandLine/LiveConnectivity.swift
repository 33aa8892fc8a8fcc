import Foundation
import HomeHub
import MatterDataModel
import MatterInteraction

/// Whether nodes answer: each connection is given `CommandLineTiming.liveAnswer` to come online.
enum LiveConnectivity {
    /// The smallest subscription that proves a node answers: its mandatory Basic Information VendorID.
    static let probe = [BasicInformationCluster.Attributes.vendorID.path(endpoint: 0)]

    /// The connection's state once it is online, offline, or out of time (then still `.connecting`).
    static func settle(
        _ connection: NodeConnection, within limit: Duration = CommandLineTiming.liveAnswer
    ) async -> NodeConnection.State {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await connection.connected() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        return await connection.state
    }

    /// Connects to every node at once, subscribing to `probe` only, and returns how each settled.
    static func states(of nodeIDs: Set<UInt64>, connections: NodeConnections) async -> [UInt64: NodeConnection.State] {
        await withTaskGroup(of: (UInt64, NodeConnection.State).self) { group in
            for nodeID in nodeIDs {
                group.addTask {
                    do {
                        return (
                            nodeID, await settle(try await connections.connection(to: nodeID, attributePaths: probe))
                        )
                    } catch {
                        return (nodeID, .offline(since: .now, reason: "\(error)"))
                    }
                }
            }
            var states: [UInt64: NodeConnection.State] = [:]
            for await (nodeID, state) in group { states[nodeID] = state }
            return states
        }
    }

    /// "online", "offline (subscription lost: …)", "no answer within 10 s".
    static func describe(_ state: NodeConnection.State) -> String {
        switch state {
        case .connecting: "no answer within \(CommandLineTiming.liveAnswer.components.seconds) s"
        case .online, .offline: state.description
        }
    }

    /// Where a node's values come from: its own session with the hub ("direct") once it answered, else nowhere yet.
    static func locality(_ state: NodeConnection.State) -> String {
        state == .online ? "direct" : "unspecified"
    }
}

extension LiveConnectivity {
    /// `"connectivity":"online"|"offline"|"noAnswer"`, `"offlineReason"` (null unless offline), `"locality"`.
    static func json(_ state: NodeConnection.State) -> [(String, JSONValue)] {
        let (name, reason): (String, String?) =
            switch state {
            case .online: ("online", nil)
            case .offline(_, let reason): ("offline", reason)
            case .connecting: ("noAnswer", nil)
            }
        return [
            ("connectivity", .string(name)), ("offlineReason", reason.map(JSONValue.string) ?? .null),
            ("locality", .string(locality(state))),
        ]
    }
}
