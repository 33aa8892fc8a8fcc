import HomeHub
import HomeRecords
import MatterDiscovery
import MatterPlatform
import MatterTestSupport
import Testing

/// One transport per process: everything the hub does with a device goes over its link's one transport, and the
/// device sees every session come from the same port.
@Suite(.timeLimit(.minutes(1))) struct HubLinkTests {
    @Test func commissioningTheLiveConnectionAPingAndARemovalAllUseTheHubsOneTransport() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let port = try await hub.link().transport.localPorts().ipv4
            let result = try await fixture.commission(hub: hub)
            let connections = NodeConnections(hub: hub, interfaces: [])
            try await connections.connection(to: result.nodeID).connected()
            _ = try await hub.ping(try hub.devices()[0], interfaces: [])
            await connections.stopAll()
            try await hub.removeFromFabric(result.nodeID, interfaces: [])

            // PASE, the commissioner's CASE, the live connection's and the ping's, then the removal's.
            let sessions = fixture.lines.all.filter { $0.hasPrefix("[session] PASE") || $0.hasPrefix("[session] CASE") }
            #expect(sessions.count == 5)
            #expect(sessions.allSatisfy { $0.hasSuffix("127.0.0.1:\(port)") }, "\(sessions)")
            #expect(await fixture.device.fabrics.isEmpty)

            // Closing the link closes its sockets: the port is free again.
            await hub.close()
            let socket = try UDPSocket(family: .ipv4)
            try socket.bind(to: .ipv4(IPv4Address(0), port: port))
            await fixture.device.shutdown()
        }
    }
}
