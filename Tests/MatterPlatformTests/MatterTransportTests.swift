import MatterDiscovery
import MatterMessaging
import Synchronization
import Testing

@testable import MatterPlatform

/// Unicast on loopback only.
@Suite(.timeLimit(.minutes(1))) struct MatterTransportTests {
    /// Matter Core §4.16: a group message is no session's; the transport hands it, still sealed, to the group layer.
    @Test func aGroupMessageIsHandedToTheGroupHandlerAndOpensNoExchange() async throws {
        let transport = try MatterTransport()
        let received = Mutex<[(GroupDatagram, PeerAddress)]>([])
        await transport.handleGroupMessages { message, sender in received.withLock { $0.append((message, sender)) } }
        let header = MessageHeader(
            sessionID: 0x1234, sessionType: .group, messageCounter: 9, sourceNodeID: 0x0102_0304_0506_0708,
            destination: .group(0x0042))
        let datagram = try header.encode() + [UInt8](repeating: 0xA5, count: 32)
        let sender = try UDPSocket(family: .ipv4)
        try sender.bind(to: .ipv4(IPv4Address(0x7F00_0001), port: 0))
        try sender.send(datagram, to: .ipv4(IPv4Address(0x7F00_0001), port: try transport.localPorts().ipv4))
        var waited = 0
        while received.withLock({ $0.isEmpty }), waited < 200 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        let (message, from) = try #require(received.withLock { $0.first })
        #expect(message.groupID == 0x0042 && message.sourceNodeID == 0x0102_0304_0506_0708)
        #expect(message.groupSessionID == 0x1234)
        #expect(message.datagram == datagram)
        #expect(from == .udp(try sender.localAddress()))
        #expect(await transport.droppedDatagrams == 0)
        await transport.shutdown()
    }
}
