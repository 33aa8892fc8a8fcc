import Foundation
import HubWire

/// The hub itself: who it is and what it serves (`home status`).
public struct ReadHubStatus: HubOperation {
    public static let name = "readHubStatus"

    public init() {}

    public var access: HubAccess { .member }
    public var summary: String { "read the hub's status" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> HubStatus {
        scope.engine.status()
    }
}

extension HubEngine {
    /// The hub as `home status` shows it (and a client's welcome).
    func status() -> HubStatus {
        let snapshot = model.snapshot
        var online = 0
        var offline = 0
        for nodeID in snapshot.devices.keys {
            switch snapshot.views[nodeID]?.state {
            case .online, .asleep: online += 1
            case .offline: offline += 1
            case .connecting, nil: break
            }
        }
        return HubStatus(
            pid: getpid(), stateDirectory: hub.directory.path, startedAt: startedAt.timeIntervalSince1970,
            nodesOnline: online, nodesOffline: offline, nodesUnknown: snapshot.devices.count - online - offline,
            nodesInterrupted: snapshot.interrupted.count, clients: clients.value)
    }
}
