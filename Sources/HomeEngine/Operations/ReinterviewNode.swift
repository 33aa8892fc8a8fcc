import HubWire

/// The whole node read again (`NodeConnection.reinterview`), what changed published as reports are.
public struct ReinterviewNode: HubOperation {
    public static let name = "reinterviewNode"
    public let nodeID: UInt64

    public init(nodeID: UInt64) {
        self.nodeID = nodeID
    }

    public var access: HubAccess { .member }
    public var summary: String { "interview a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let connection = try await scope.engine.live.connection(to: nodeID)
        do {
            try await connection.reinterview()
            return Done()
        } catch {
            throw HomeError(error, command: "the interview")
        }
    }
}
