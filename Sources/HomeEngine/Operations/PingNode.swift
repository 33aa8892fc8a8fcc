import HubWire
import MatterPlatform

/// `home ping`: a CASE session to the node from scratch (besides the hub's own), and `reads` reads of its vendor
/// name over it.
public struct PingNode: HubOperation {
    public static let name = "pingNode"
    public let nodeID: UInt64
    public let reads: Int

    public init(nodeID: UInt64, reads: Int) {
        self.nodeID = nodeID
        self.reads = reads
    }

    public struct Result: Codable, Sendable, Hashable {
        public let address: SocketAddress
        public let vendorName: String
        public let sessionSeconds: Double
        public let roundTripSeconds: [Double]
    }

    public var access: HubAccess { .member }
    public var summary: String { "ping a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Result {
        let engine = scope.engine
        guard let node = engine.model.devices(of: nodeID)?.first else {
            throw HomeError(.notFound, "node \(HubEngine.nodeDeviceID(nodeID)) is no longer in the home")
        }
        do {
            let result = try await engine.hub.ping(node, interfaces: engine.commissioning.interfaces, reads: reads)
            return Result(
                address: result.address, vendorName: result.vendorName,
                sessionSeconds: result.sessionEstablishment.inSeconds,
                roundTripSeconds: result.roundTrips.map(\.inSeconds))
        } catch {
            throw HomeError(.unavailable, "\(error)")
        }
    }
}
