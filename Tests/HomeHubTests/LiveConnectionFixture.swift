import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterNode
import MatterPlatform
import MatterTestSupport

@testable import HomeHub

/// A controller transport with its router, and live connections to loopback lights over it.
struct LiveConnectionFixture {
    let controller: MatterTransport
    let router: InteractionRouter
    /// How many sessions each connection established, by node ID.
    let establishments = Received<UInt64>()

    /// On loopback UDP and the system clock, or on a test network and its manual clock.
    init(network: ClockedNetwork? = nil) throws {
        if let network {
            controller = network.transport()
        } else {
            controller = try MatterTransport()
        }
        router = InteractionRouter(transport: controller)
    }

    /// A started connection to `light` as node `nodeID`, subscribing with a max interval of `maxInterval` seconds;
    /// `observer` hears its every event.
    func connect(
        to light: LoopbackLight, nodeID: UInt64 = 1, maxInterval: UInt16 = 1,
        observer: @escaping @Sendable (NodeConnection, NodeConnection.Event, HomeModel.NodeView) -> Void = { _, _, _ in
        }
    ) async -> NodeConnection {
        let (controller, establishments) = (controller, establishments)
        let connection = NodeConnection(
            nodeID: nodeID, transport: controller, router: router,
            // A light answers at once; 15 s only bounds a full parallel suite on two cores, where a CI run once saw two
            // invokes of this suite wait more than 5 s.
            settings: NodeConnection.Settings(maxIntervalCeiling: maxInterval, responseTimeout: .seconds(15)),
            observer: observer
        ) {
            await establishments.append(nodeID)
            return try await light.makeSession(with: controller)
        }
        await connection.start()
        return connection
    }

    func stop(_ connections: [NodeConnection], _ lights: [LoopbackLight]) async {
        for connection in connections { await connection.stop() }
        for light in lights { await light.stop() }
        await controller.shutdown()
    }
}

extension AsyncStream<NodeConnection.Event>.Iterator {
    /// The next event the predicate accepts, skipping the others; nil when the sequence ends first.
    mutating func next(where accepts: (NodeConnection.Event) -> Bool) async -> NodeConnection.Event? {
        while let event = await next() {
            if accepts(event) { return event }
        }
        return nil
    }

    /// Skips what a late joiner of an online connection gets first: the state, then every cached path.
    mutating func skipSnapshot() async {
        _ = await next()
        _ = await next()
    }

    mutating func nextConnectivity() async -> NodeConnection.State? {
        guard case .connectivity(let state)? = await next(where: { if case .connectivity = $0 { true } else { false } })
        else { return nil }
        return state
    }

    mutating func nextAttributes() async -> Set<ConcreteAttributePath>? {
        guard case .attributes(let paths)? = await next(where: { if case .attributes = $0 { true } else { false } })
        else { return nil }
        return paths
    }
}
