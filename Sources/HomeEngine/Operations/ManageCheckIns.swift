import HomeHub
import HubWire

/// The hub as the check-in client of a sleeping device (Matter Core §9.16; matterjs-server's ICD commands): where it
/// stands, register (the hub does so at first contact anyway), unregister, or forget its registration and reconnect.
public struct ManageCheckIns: HubOperation {
    public static let name = "manageCheckIns"
    public let nodeID: UInt64
    public let action: Action

    public enum Action: Codable, Sendable, Hashable {
        case read
        /// Registers unless other ecosystems administer the node (their vendors not in `ignoredVendors`), or anyway
        /// with `allowMultiAdmin`.
        case register(allowMultiAdmin: Bool, ignoredVendors: [UInt16])
        /// UnregisterClient on the node, then the stored key; `force`: the stored key only (an unreachable node).
        case unregister(force: Bool)
        case resync
    }

    public enum Result: Codable, Sendable, Hashable {
        case state(CheckInState)
        /// Not registered: other ecosystems administer the node, and may not reach it once it sleeps for long.
        case otherAdministrators(vendorIDs: [UInt16])
    }

    public init(nodeID: UInt64, action: Action) {
        self.nodeID = nodeID
        self.action = action
    }

    public var access: HubAccess {
        switch action {
        case .read: .member
        case .register, .unregister, .resync: .nodeRight(.devices, nodeID: nodeID)
        }
    }

    public var summary: String { action == .read ? "read a device's check-in state" : "change a device's check-ins" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Result {
        let live = scope.engine.live
        guard scope.engine.model.devices(of: nodeID)?.isEmpty == false else {
            throw HomeError(.notFound, "node \(HubEngine.nodeDeviceID(nodeID)) is not in the home")
        }
        // Followed from now on (its feed into the model open), as any node a command concerns.
        _ = try await live.connection(to: nodeID)
        let connections = live.nodeConnections()
        do throws(CheckInRegistrationError) {
            switch action {
            case .read: break
            case .register(let allowMultiAdmin, let ignoredVendors):
                try await connections.registerForCheckIns(
                    nodeID: nodeID, allowMultiAdmin: allowMultiAdmin, ignoredVendors: Set(ignoredVendors))
            case .unregister(let force): try await connections.unregisterFromCheckIns(nodeID: nodeID, force: force)
            case .resync: try await connections.resyncCheckIns(nodeID: nodeID)
            }
        } catch .otherAdministrators(let vendors) {
            return .otherAdministrators(vendorIDs: vendors)
        } catch .notLongIdleTime(let nodeID) {
            throw HomeError(.failedPrecondition, "\(CheckInRegistrationError.notLongIdleTime(nodeID: nodeID))")
        } catch {
            throw HomeError(.unavailable, "\(error)")
        }
        do {
            return .state(try await connections.checkInState(of: nodeID))
        } catch {
            throw HomeError(.unavailable, "\(error)")
        }
    }
}
