import Foundation
import HomeAPI
import HomeHub
import HomeRecords
import MatterDataModel
import MatterInteraction

/// Whether nodes answer: each connection is given `CommandLineTiming.liveAnswer` to come online.
enum LiveConnectivity {
    /// Follows every device's node through the home's hub, all at once, and returns how each settled: online,
    /// offline, or still connecting after `limit`.
    static func states(
        of devices: Set<HomeDevice>, in home: Home, within limit: Duration = CommandLineTiming.liveAnswer
    ) async -> [UInt64: NodeConnection.State] {
        let nodes = Dictionary(grouping: devices, by: \.address.nodeID).compactMapValues(\.first)
        let model = home.hub.model
        // Each node's task is false once it settled; the deadline's is true.
        await withTaskGroup(of: Bool.self) { group in
            for (nodeID, device) in nodes {
                group.addTask {
                    // Listening first, so a state that settles during the first contact is heard.
                    let changes = model.changes(.node(nodeID))
                    await device.follow()
                    guard model.view(of: nodeID)?.state ?? .connecting == .connecting else { return false }
                    for await _ in changes where model.view(of: nodeID)?.state ?? .connecting != .connecting {
                        return false
                    }
                    return false
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return true
            }
            var settled = 0
            for await deadline in group {
                settled += 1
                if deadline || settled == nodes.count { break }
            }
            group.cancelAll()
        }
        return nodes.keys.reduce(into: [:]) { states, nodeID in
            states[nodeID] = model.view(of: nodeID)?.state ?? .connecting
        }
    }

    /// "online", "offline (subscription lost: …)", "no answer within 10 s".
    static func describe(_ state: NodeConnection.State) -> String {
        switch state {
        case .connecting: "no answer within \(CommandLineTiming.liveAnswer.components.seconds) s"
        case .online, .offline, .asleep: state.description
        }
    }

    /// Where a node's values come from: its own session with the hub ("direct") once it answered, else nowhere yet.
    static func locality(_ state: NodeConnection.State) -> String {
        switch state {
        case .online, .asleep: "direct"
        case .offline, .connecting: "unspecified"
        }
    }
}

extension LiveConnectivity {
    /// `"connectivity":"online"|"offline"|"asleep"|"noAnswer"`, `"offlineReason"` (null unless offline), `"locality"`.
    static func json(_ state: NodeConnection.State) -> [(String, JSONValue)] {
        let (name, reason): (String, String?) =
            switch state {
            case .online: ("online", nil)
            case .offline(_, let reason): ("offline", reason)
            case .asleep: ("asleep", nil)
            case .connecting: ("noAnswer", nil)
            }
        return [
            ("connectivity", .string(name)), ("offlineReason", reason.map(JSONValue.string) ?? .null),
            ("locality", .string(locality(state))),
        ]
    }
}
