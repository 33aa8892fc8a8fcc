import HomeHub
import HomeRecords
import MatterBTP
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterTestSupport
import Testing

@testable import MatterDevice

/// Every process is a node on any link: a device's node answers a commissioner over a Bluetooth LE connection carrying
/// BTP as it does over UDP, with MRP off, because the link is reliable (Matter Core §4.12.1).
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

            // Over BTP (the handshake, then each message in one segment of up to 244 bytes, with BTP's own
            // acknowledgements): PASE's six messages and the read's two, and nothing else. No message asked for an
            // acknowledgement, so none was sent, and nothing was retransmitted.
            #expect(link.packets.prefix(2).map { Array($0.prefix(2)) } == [[0x65, 0x6C], [0x65, 0x6C]])
            let messages = try link.packets.dropFirst(2).compactMap { bytes -> [UInt8]? in
                let packet = try BTPPacket(decoding: bytes)
                guard packet.flags.contains(.beginning) else { return nil }
                #expect(packet.flags.contains(.ending))
                return packet.payload
            }
            #expect(messages.count == 8)
            let unsecured = try messages.filter { try MessageHeader.decode($0).header.sessionID == 0 }
                .map { try Message.decode($0) }
            #expect(unsecured.count == 6)
            #expect(unsecured.allSatisfy { !$0.protocolHeader.needsAcknowledgement })

            #expect(link.closures.isEmpty)
            // The connection closing ends the session: a request on it fails at once rather than waiting.
            await link.central.close()
            await #expect(throws: InteractionClientError.self) {
                _ = try await client.read([vendorName.path(endpoint: 0)], timeout: .seconds(30))
            }
            await controller.shutdown()
            await fixture.device.shutdown()
        }
    }
}
