import HomeRecords
import HubWire

/// Every endpoint of a node with its device types and semantic tags, as the store keeps them (endpoints that are no
/// device of the home included: a bridge's aggregator): for `home show`.
public struct ReadNodeEndpoints: HubOperation {
    public static let name = "readNodeEndpoints"
    public let nodeID: UInt64

    public init(nodeID: UInt64) {
        self.nodeID = nodeID
    }

    public struct Endpoints: Codable, Sendable, Hashable {
        public let deviceTypes: [EndpointDeviceType]
        public let tags: [EndpointSemanticTag]
    }

    public var access: HubAccess { .member }
    public var summary: String { "read a node's endpoints" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Endpoints {
        let store = scope.engine.store
        do {
            return Endpoints(
                deviceTypes: try await store.endpoints(of: nodeID), tags: try await store.semanticTags(of: nodeID))
        } catch {
            throw HomeError(error)
        }
    }
}
