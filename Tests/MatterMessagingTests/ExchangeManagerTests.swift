import MatterCrypto
import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("ExchangeManager")
struct ExchangeManagerTests {
    @Test func unsecuredSessionsGetDistinctRandomEphemeralNodeIDs() throws {
        var manager = ExchangeManager<String>(random: DeterministicRandom(seed: 7))
        let first = manager.openUnsecuredSession(to: "device")
        let second = manager.openUnsecuredSession(to: "device")
        guard case let .unsecuredInitiator(firstNodeID) = manager.sessions[first]?.kind,
            case let .unsecuredInitiator(secondNodeID) = manager.sessions[second]?.kind
        else {
            Issue.record("not unsecured initiator sessions")
            return
        }
        #expect(firstNodeID != secondNodeID)
        #expect(MessagingConstants.operationalNodeIDRange.contains(firstNodeID))
        #expect(MessagingConstants.operationalNodeIDRange.contains(secondNodeID))

        // Each attempt's messages carry its own node ID; the counter is the node's one global counter.
        let firstRequest = try manager.send(pbkdfParamRequest, on: manager.openExchange(on: first), now: .zero)
        let secondRequest = try manager.send(pbkdfParamRequest, on: manager.openExchange(on: second), now: .zero)
        let firstHeader = try Message.decode(try #require(firstRequest.datagrams().first)).header
        let secondHeader = try Message.decode(try #require(secondRequest.datagrams().first)).header
        #expect(firstHeader.sourceNodeID == firstNodeID && firstHeader.destination == nil)
        #expect(secondHeader.sourceNodeID == secondNodeID)
        #expect(secondHeader.messageCounter == firstHeader.messageCounter &+ 1)
    }

    @Test func drawsEphemeralNodeIDsFromTheRandomSourceAndStepsPastCollisions() {
        var manager = ExchangeManager<String>(random: RepeatingRandom([0x00]))
        let first = manager.openUnsecuredSession(to: "device")
        let second = manager.openUnsecuredSession(to: "device")
        #expect(manager.sessions[first]?.kind == .unsecuredInitiator(localEphemeralNodeID: 1))
        #expect(manager.sessions[second]?.kind == .unsecuredInitiator(localEphemeralNodeID: 2))
        var high = ExchangeManager<String>(random: RepeatingRandom([0xFF]))
        let top = high.openUnsecuredSession(to: "device")
        // 1 + (2^64 − 1) mod 0xFFFF_FFEF_FFFF_FFFF, the size of the range.
        #expect(high.sessions[top]?.kind == .unsecuredInitiator(localEphemeralNodeID: 0x0000_0010_0000_0001))
    }

    @Test func responderAnswersOnTheInitiatorsEphemeralNodeID() throws {
        var controller = ExchangeManager<String>(random: DeterministicRandom(seed: 1))
        var device = ExchangeManager<String>(random: DeterministicRandom(seed: 2))
        let session = controller.openUnsecuredSession(to: "device")
        guard case let .unsecuredInitiator(nodeID) = controller.sessions[session]?.kind else {
            Issue.record("not an unsecured initiator session")
            return
        }
        let exchange = try controller.openExchange(on: session)
        let request = try #require(try controller.send(pbkdfParamRequest, on: exchange, now: .zero).datagrams().first)

        let received = try device.receive(request, from: "controller", now: milliseconds(1))
        guard case let .newExchange(deviceExchange, message) = try #require(received.events().first) else {
            Issue.record("no new exchange")
            return
        }
        #expect(message == pbkdfParamRequest)
        #expect(deviceExchange.exchangeID == exchange.exchangeID && deviceExchange.role == .responder)
        #expect(device.sessions[deviceExchange.session]?.kind == .unsecuredResponder(peerEphemeralNodeID: nodeID))
        #expect(device.sessions[deviceExchange.session]?.peerAddress == "controller")

        let response = ExchangeMessage(
            protocolID: .secureChannel, opcode: SecureChannelOpcode.pbkdfParamResponse.rawValue, payload: [0x15, 0x18])
        let reply = try #require(try device.send(response, on: deviceExchange, now: milliseconds(2)).datagrams().first)
        let replyHeader = try Message.decode(reply).header
        #expect(replyHeader.destination == .node(nodeID))
        #expect(replyHeader.sourceNodeID == nil)
        #expect(
            try controller.receive(reply, from: "device", now: milliseconds(3)).events()
                == [.message(exchange, response)])
    }

    @Test func secureSessionRoundTripIsEncrypted() throws {
        var pair = try SecurePair()
        let payload = Array("hello, device".utf8)
        let (exchange, request) = try pair.request(payload, now: .zero)
        #expect(request.firstRange(of: payload) == nil)
        let opened = try SecurePair.openFromController(request)
        #expect(opened.header.sessionID == SecurePair.deviceSessionID)
        #expect(opened.header.messageCounter == 1)
        #expect(opened.protocolHeader.isInitiator && opened.protocolHeader.needsAcknowledgement)
        #expect(opened.payload == payload)

        let received = try pair.device.receive(request, from: "controller", now: milliseconds(1))
        let deviceExchange = ExchangeHandle(
            session: pair.deviceSession, exchangeID: exchange.exchangeID, role: .responder)
        let requestMessage = ExchangeMessage(protocolID: echoProtocol, opcode: 1, payload: payload)
        #expect(received.events() == [.newExchange(deviceExchange, requestMessage)])

        let answer = ExchangeMessage(protocolID: echoProtocol, opcode: 2, payload: Array("hello, controller".utf8))
        let reply = try #require(
            try pair.device.send(answer, on: deviceExchange, now: milliseconds(2)).datagrams().first)
        #expect(try SecurePair.openFromDevice(reply).header.sessionID == SecurePair.controllerSessionID)
        #expect(
            try pair.controller.receive(reply, from: "device", now: milliseconds(3)).events()
                == [.message(exchange, answer)])

        var tampered = reply
        tampered[tampered.count - 1] ^= 0x01
        #expect(throws: ExchangeError.message(.authenticationFailed)) {
            try pair.controller.receive(tampered, from: "device", now: milliseconds(4))
        }
    }

    @Test func refusesDatagramsItCannotRoute() throws {
        var manager = ExchangeManager<String>(random: RepeatingRandom([0]))
        let anyProtocolHeader = ProtocolHeader(
            isInitiator: false, needsAcknowledgement: true, opcode: 1, exchangeID: 9, protocolID: echoProtocol)
        #expect(throws: ExchangeError.message(.truncated(needed: 1, offset: 0, available: 0))) {
            try manager.receive([], from: "x", now: .zero)
        }
        #expect(throws: ExchangeError.unknownSecureSessionID(0x1234)) {
            try manager.receive(hex("00 3412 00 01000000") + [UInt8](repeating: 0, count: 24), from: "x", now: .zero)
        }
        let toStranger = Message(
            header: MessageHeader(sessionID: 0, messageCounter: 1, destination: .node(0x99)),
            protocolHeader: anyProtocolHeader, payload: [])
        #expect(throws: ExchangeError.unknownEphemeralNodeID(0x99)) {
            try manager.receive(toStranger.encode(), from: "x", now: .zero)
        }
        let unsolicitedResponse = Message(
            header: MessageHeader(sessionID: 0, messageCounter: 1, sourceNodeID: 0x42),
            protocolHeader: anyProtocolHeader, payload: [])
        #expect(throws: ExchangeError.unsolicitedUnsecuredMessage(sourceNodeID: 0x42)) {
            try manager.receive(unsolicitedResponse.encode(), from: "x", now: .zero)
        }
        let group = try MessageHeader(
            sessionID: 0xABCD, sessionType: .group, messageCounter: 1, sourceNodeID: 1, destination: .group(7)
        ).encode()
        // A group message is no session's: it goes on to the group layer, still sealed, and opens nothing here.
        let sealed = group + [UInt8](repeating: 0, count: 24)
        let handedOn = try manager.receive(sealed, from: "x", now: .zero)
        guard handedOn.count == 1, case .deliverGroupMessage(let message, from: "x") = handedOn[0] else {
            Issue.record("expected the group message to be handed on: \(handedOn)")
            return
        }
        #expect(message.groupSessionID == 0xABCD && message.sourceNodeID == 1 && message.groupID == 7)
        #expect(message.datagram == sealed)
        // A group message without its sender is malformed, and dropped.
        // (flags: DSIZ group, no S; session 0xABCD; security flags: group session; counter 1; group 7)
        let anonymous = hex("02 CDAB 01 01000000 0700") + [UInt8](repeating: 0, count: 24)
        #expect(throws: ExchangeError.message(.groupMessageWithoutSourceNodeID)) {
            try manager.receive(anonymous, from: "x", now: .zero)
        }
        #expect(manager.sessions.isEmpty)
        #expect(manager.nextDeadline == nil)
    }

    @Test func refusesUnknownSessionsAndSessionIDsInUse() throws {
        var pair = try SecurePair()
        #expect(throws: ExchangeError.unknownSession(SessionHandle(rawValue: 99))) {
            try pair.controller.openExchange(on: SessionHandle(rawValue: 99))
        }
        let duplicateID = SecureSessionParameters(
            localSessionID: SecurePair.controllerSessionID, peerSessionID: 7, encryptionKey: [], decryptionKey: [],
            localNonceNodeID: 0, peerNonceNodeID: 0)
        #expect(throws: ExchangeError.sessionIDInUse(SecurePair.controllerSessionID)) {
            try pair.controller.addSecureSession(duplicateID, peer: "elsewhere")
        }
        pair.controller.removeSession(pair.controllerSession)
        #expect(throws: ExchangeError.unknownSecureSessionID(SecurePair.controllerSessionID)) {
            try pair.controller.receive(
                pair.device.send(pbkdfParamRequest, on: pair.device.openExchange(on: pair.deviceSession), now: .zero)
                    .datagrams()[0],
                from: "device", now: .zero)
        }
    }

    @Test func allowsOneUnacknowledgedReliableMessagePerExchange() throws {
        var pair = try SecurePair()
        let (exchange, _) = try pair.request([1], now: .zero)
        let second = ExchangeMessage(protocolID: echoProtocol, opcode: 3, payload: [2])
        #expect(throws: ExchangeError.previousMessageUnacknowledged(exchange, opcode: 3)) {
            try pair.controller.send(second, on: exchange, now: milliseconds(1))
        }
        let unreliable = try pair.controller.send(second, on: exchange, reliably: false, now: milliseconds(1))
        #expect(
            try SecurePair.openFromController(unreliable.datagrams()[0]).protocolHeader.needsAcknowledgement == false)
        #expect(pair.controller.close(exchange, now: milliseconds(2)).isEmpty)
        #expect(throws: ExchangeError.unknownExchange(exchange)) {
            try pair.controller.send(second, on: exchange, reliably: false, now: milliseconds(3))
        }
    }

    @Test func exchangeIDsStartAtARandomValueAndCountUp() throws {
        // The global counter takes the first four random bytes, the first exchange ID the next two.
        var manager = ExchangeManager<String>(random: RepeatingRandom([0xAB, 0xCD]))
        let first = manager.openUnsecuredSession(to: "a")
        let second = manager.openUnsecuredSession(to: "b")
        #expect(try manager.openExchange(on: first).exchangeID == 0xCDAB)
        #expect(try manager.openExchange(on: first).exchangeID == 0xCDAC)
        #expect(try manager.openExchange(on: second).exchangeID == 0xCDAD)
    }

    @Test func describesErrorsForPeople() {
        let exchange = ExchangeHandle(session: SessionHandle(rawValue: 1), exchangeID: 0xCDAB, role: .initiator)
        #expect(
            ExchangeError.deliveryFailed(exchange, protocolID: .secureChannel, opcode: 0x20, transmissions: 5)
                .description
                == "exchange 0xCDAB (initiator) on session 1: no acknowledgement for secure channel opcode 0x20 after 5 transmissions"
        )
        #expect(
            ExchangeError.message(.truncated(needed: 1, offset: 0, available: 0)).description
                == "message error: truncated: needed 1 bytes at offset 0, 0 left")
        #expect(
            ExchangeError.previousMessageUnacknowledged(exchange, opcode: 3).description
                == "exchange 0xCDAB (initiator) on session 1: cannot send opcode 0x03 reliably before the previous message is acknowledged"
        )
    }
}
