import HomeHub
import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterPlatform
import MatterTestSupport
import Testing

@testable import MatterDevice

/// Every process is a node on any link: a device's node answers a commissioner over a Bluetooth LE connection as it
/// does over UDP, with MRP off, because the link is reliable (Matter Core §4.12.1).
@Suite(.timeLimit(.minutes(1))) struct BluetoothLinkTests {
    @Test func aDeviceAnswersPASEAndAReadOverABluetoothConnectionWithNoAcknowledgements() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let controller = try MatterTransport()
            let link = await SimulatedBluetoothLink(
                controller, fixture.device.node.transport, connection: BluetoothConnection(id: 7))

            let pase = try await SessionEstablishment.pase(
                with: .bluetooth(link.connection), passcode: LoopbackFixture.passcode, over: controller)
            #expect(pase.peer == .bluetooth(link.connection))
            let client = InteractionClient(
                transport: controller, session: pase.session, peerParameters: pase.established.mrpParameters)
            let vendorName = BasicInformationCluster.Attributes.vendorName
            var cache = AttributeCache()
            cache.apply(try await client.read([vendorName.path(endpoint: 0)]).attributeReports)
            #expect(try cache.value(vendorName, endpoint: 0) == "swift-home")

            // PASE's six messages and the read's two, and nothing else: no message asked for an acknowledgement, so
            // none was sent, and nothing was retransmitted.
            let messages = link.messages
            #expect(messages.count == 8)
            let unsecured = try messages.filter { try MessageHeader.decode($0).header.sessionID == 0 }
                .map { try Message.decode($0) }
            #expect(unsecured.count == 6)
            #expect(unsecured.allSatisfy { !$0.protocolHeader.needsAcknowledgement })

            // The connection closing ends the session: a request on it fails at once rather than waiting.
            await controller.detach(link.connection)
            await #expect(throws: InteractionClientError.self) {
                _ = try await client.read([vendorName.path(endpoint: 0)], timeout: .seconds(30))
            }
            await controller.shutdown()
            await fixture.device.shutdown()
        }
    }
}
