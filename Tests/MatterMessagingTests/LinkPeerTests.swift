import MatterCrypto
import MatterTestSupport
import Testing

@testable import MatterMessaging

/// A peer over a reliable link (BTP over Bluetooth LE, or TCP): the link delivers in order or fails.
private struct ReliablePeer: LinkPeer {
    let name: String
    var isReliableLink: Bool { true }
    var maximumMessageSize: Int { MessagingConstants.maximumUDPMessageSize }
}

/// Matter Core §4.12.1: MRP runs only over unreliable links.
@Suite struct LinkPeerTests {
    @Test func overAReliableLinkNothingAsksForAnAcknowledgementOrIsRetransmitted() throws {
        var controller = ExchangeManager<ReliablePeer>(random: RepeatingRandom([0]))
        var device = ExchangeManager<ReliablePeer>(random: RepeatingRandom([0]))
        let session = controller.openUnsecuredSession(to: ReliablePeer(name: "device"))
        let exchange = try controller.openExchange(on: session)
        let sent = try controller.send(pbkdfParamRequest, on: exchange, now: .zero)
        let datagram = try #require(sent.datagrams().first)
        #expect(try !Message.decode(datagram).protocolHeader.needsAcknowledgement)
        #expect(controller.nextDeadline == nil, "no retransmission is scheduled")
        // A second message on the exchange needs no acknowledgement of the first.
        #expect(throws: Never.self) { try controller.send(pbkdfParamRequest, on: exchange, now: .zero) }

        let received = try device.receive(datagram, from: ReliablePeer(name: "controller"), now: .zero)
        #expect(received.events().count == 1)
        #expect(received.datagrams().isEmpty)
        #expect(device.nextDeadline == nil, "nothing to acknowledge")
    }

    @Test func overAnUnreliableLinkMRPAsksForAnAcknowledgementAndRetransmits() throws {
        var controller = ExchangeManager<String>(random: RepeatingRandom([0]))
        let session = controller.openUnsecuredSession(to: "device")
        let sent = try controller.send(pbkdfParamRequest, on: try controller.openExchange(on: session), now: .zero)
        #expect(try Message.decode(try #require(sent.datagrams().first)).protocolHeader.needsAcknowledgement)
        #expect(controller.nextDeadline != nil)
    }

    /// Matter Core §4.4.4: a message the link cannot carry is refused when sent, and the exchange goes on as before.
    @Test func aMessageLargerThanTheLinkCarriesIsRefusedAndTheExchangeGoesOn() throws {
        var controller = ExchangeManager<String>(random: RepeatingRandom([0]))
        let exchange = try controller.openExchange(on: controller.openUnsecuredSession(to: "device"))
        let fits = ExchangeMessage(protocolID: .secureChannel, opcode: 0x20, payload: Array(repeating: 1, count: 1210))
        let sent = try controller.send(fits, on: exchange, reliably: false, now: .zero)
        let size = try #require(sent.datagrams().first).count
        #expect(size <= MessagingConstants.maximumUDPMessageSize)

        // One byte more than fills the link, the headers being the same.
        let over = 1210 + MessagingConstants.maximumUDPMessageSize - size + 1
        let tooLarge = ExchangeMessage(
            protocolID: .secureChannel, opcode: 0x20, payload: Array(repeating: 1, count: over))
        #expect(
            throws: ExchangeError.messageTooLarge(
                exchange, size: MessagingConstants.maximumUDPMessageSize + 1, limit: 1232)
        ) {
            try controller.send(tooLarge, on: exchange, now: .zero)
        }
        #expect(controller.nextDeadline == nil, "nothing refused is retransmitted")
        #expect(throws: Never.self) { try controller.send(pbkdfParamRequest, on: exchange, now: .zero) }
    }
}
