import HubWire

/// OnOff Toggle, or On or Off for a node that does not accept Toggle.
public struct ToggleOnOff: HubOperation {
    public static let name = "toggleOnOff"
    public let nodeID: UInt64
    public let endpoint: UInt16

    public init(nodeID: UInt64, endpoint: UInt16) {
        self.nodeID = nodeID
        self.endpoint = endpoint
    }

    public var access: HubAccess { .member }
    public var summary: String { "invoke Toggle" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> ToggleOutcome {
        let connection = try await scope.engine.live.connection(to: nodeID)
        do {
            switch try await connection.toggle(endpoint: endpoint) {
            case .toggle: return .toggled
            case .on: return .turnedOn
            case .off: return .turnedOff
            }
        } catch {
            throw HomeError(error, command: "Toggle")
        }
    }
}
