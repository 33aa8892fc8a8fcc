import Testing

@testable import MatterMessaging

@Suite("ExchangeManager receiving")
struct ExchangeManagerReceiveTests {
    @Test func deliversADuplicateOnceAndAcknowledgesItAgainAtOnce() throws {
        var pair = try SecurePair()
        let (exchange, request) = try pair.request([7], now: .zero)
        let first = try pair.device.receive(request, from: "controller", now: milliseconds(1))
        #expect(first.events().count == 1)
        #expect(first.datagrams().isEmpty)

        let again = try pair.device.receive(request, from: "controller", now: milliseconds(2))
        #expect(again.events().isEmpty)
        let ack = try SecurePair.openFromDevice(try #require(again.datagrams().first))
        #expect(again.count == 1)
        #expect(ack.protocolHeader.protocolID == .secureChannel)
        #expect(ack.protocolHeader.opcode == SecureChannelOpcode.standaloneAcknowledgement.rawValue)
        #expect(ack.protocolHeader.acknowledgedMessageCounter == 1)
        #expect(!ack.protocolHeader.needsAcknowledgement && !ack.protocolHeader.isInitiator)
        #expect(ack.protocolHeader.exchangeID == exchange.exchangeID)
        #expect(ack.payload.isEmpty)
        // That acknowledgement settled the pending one: nothing is left to send at 200 ms.
        #expect(pair.device.nextDeadline == nil)

        #expect(try pair.controller.receive(again.datagrams()[0], from: "device", now: milliseconds(3)).isEmpty)
        #expect(pair.controller.nextDeadline == nil)
    }

    @Test func dropsAnUnreliableDuplicateSilently() throws {
        var pair = try SecurePair()
        let exchange = try pair.controller.openExchange(on: pair.controllerSession)
        let message = ExchangeMessage(protocolID: echoProtocol, opcode: 1, payload: [1])
        let datagram = try pair.controller.send(message, on: exchange, reliably: false, now: .zero).datagrams()[0]
        #expect(try pair.device.receive(datagram, from: "controller", now: milliseconds(1)).events().count == 1)
        #expect(try pair.device.receive(datagram, from: "controller", now: milliseconds(2)).isEmpty)
        #expect(pair.device.nextDeadline == nil)
    }

    // The very first messages of the session may arrive out of order too.
    @Test func deliversReorderedMessagesOnceEach() throws {
        var pair = try SecurePair()
        var sent: [(ExchangeHandle, [UInt8])] = []
        for index in UInt8(0)..<4 {
            sent.append(try pair.request([index], now: .zero))
        }
        let arrivalOrder = [3, 0, 2, 1]
        var delivered: [ExchangeEvent] = []
        for index in arrivalOrder {
            delivered += try pair.device.receive(sent[index].1, from: "controller", now: milliseconds(1)).events()
        }
        let expected = arrivalOrder.map { index in
            ExchangeEvent.newExchange(
                ExchangeHandle(session: pair.deviceSession, exchangeID: sent[index].0.exchangeID, role: .responder),
                ExchangeMessage(protocolID: echoProtocol, opcode: 1, payload: [UInt8(index)]))
        }
        #expect(delivered == expected)

        var acknowledged: [UInt32?] = []
        for (_, datagram) in sent {
            let actions = try pair.device.receive(datagram, from: "controller", now: milliseconds(2))
            #expect(actions.events().isEmpty)
            acknowledged += try actions.datagrams().map {
                try SecurePair.openFromDevice($0).protocolHeader.acknowledgedMessageCounter
            }
        }
        #expect(acknowledged == [1, 2, 3, 4])
    }

    @Test func piggybacksThePendingAcknowledgementOnTheResponse() throws {
        var pair = try SecurePair()
        let (exchange, request) = try pair.request([1], now: .zero)
        _ = try pair.device.receive(request, from: "controller", now: milliseconds(10))
        #expect(pair.device.nextDeadline == milliseconds(210))

        let deviceExchange = ExchangeHandle(
            session: pair.deviceSession, exchangeID: exchange.exchangeID, role: .responder)
        let answer = ExchangeMessage(protocolID: echoProtocol, opcode: 2, payload: [1])
        let reply = try pair.device.send(answer, on: deviceExchange, now: milliseconds(50)).datagrams()
        let opened = try SecurePair.openFromDevice(try #require(reply.first))
        #expect(opened.protocolHeader.acknowledgedMessageCounter == 1)
        #expect(opened.protocolHeader.needsAcknowledgement)
        // No ack timer is left, only the response's own retransmission: the controller was heard 40 ms ago,
        // so it is active and the wait is 300 ms × 1.1.
        #expect(pair.device.nextDeadline == milliseconds(380))
        #expect(pair.device.handleTimer(now: milliseconds(210)).isEmpty)

        #expect(
            try pair.controller.receive(reply[0], from: "device", now: milliseconds(60)).events()
                == [.message(exchange, answer)])
        // The request is acknowledged; what remains is the controller's own ack for the response.
        #expect(pair.controller.nextDeadline == milliseconds(260))
    }

    @Test func flushesAPendingAcknowledgementWhenClosing() throws {
        var pair = try SecurePair()
        let (exchange, request) = try pair.request([1], now: .zero)
        _ = try pair.device.receive(request, from: "controller", now: milliseconds(1))
        let deviceExchange = ExchangeHandle(
            session: pair.deviceSession, exchangeID: exchange.exchangeID, role: .responder)
        let closing = pair.device.close(deviceExchange, now: milliseconds(5))
        #expect(
            try closing.datagrams().map { try SecurePair.openFromDevice($0).protocolHeader.acknowledgedMessageCounter }
                == [1])
        #expect(pair.device.nextDeadline == nil)
        #expect(pair.device.close(deviceExchange, now: milliseconds(6)).isEmpty)
    }

    @Test func acknowledgesButDoesNotDeliverOnAClosedExchange() throws {
        var pair = try SecurePair()
        let (exchange, request) = try pair.request([1], now: .zero)
        _ = try pair.device.receive(request, from: "controller", now: milliseconds(1))
        let ack = pair.device.handleTimer(now: milliseconds(201)).datagrams()
        _ = try pair.controller.receive(try #require(ack.first), from: "device", now: milliseconds(202))

        // The device answers and closes; its answer is still awaiting an acknowledgement.
        let deviceExchange = ExchangeHandle(
            session: pair.deviceSession, exchangeID: exchange.exchangeID, role: .responder)
        _ = try pair.device.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 2, payload: []), on: deviceExchange,
            now: milliseconds(210))
        #expect(pair.device.close(deviceExchange, now: milliseconds(210)).isEmpty)

        let late = try pair.controller.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 3, payload: [9]), on: exchange, now: milliseconds(220))
        let actions = try pair.device.receive(late.datagrams()[0], from: "controller", now: milliseconds(221))
        #expect(actions.events().isEmpty)
        #expect(
            try actions.datagrams().map { try SecurePair.openFromDevice($0).protocolHeader.opcode }
                == [SecureChannelOpcode.standaloneAcknowledgement.rawValue])
    }

    @Test func acknowledgesButDropsAMessageForAnUnknownExchange() throws {
        var pair = try SecurePair()
        let stray = try Message(
            header: MessageHeader(sessionID: SecurePair.deviceSessionID, messageCounter: 77),
            protocolHeader: ProtocolHeader(
                isInitiator: false, needsAcknowledgement: true, opcode: 2, exchangeID: 0x5555, protocolID: echoProtocol),
            payload: [1]
        ).encrypted(key: SecurePair.controllerToDeviceKey, nonceSourceNodeID: SecurePair.controllerNodeID)
        let actions = try pair.device.receive(stray, from: "controller", now: .zero)
        #expect(actions.events().isEmpty)
        let ack = try SecurePair.openFromDevice(try #require(actions.datagrams().first)).protocolHeader
        #expect(ack.acknowledgedMessageCounter == 77)
        #expect(ack.isInitiator && ack.exchangeID == 0x5555)
        #expect(pair.device.nextDeadline == nil)
    }

    /// The device's standalone acknowledgement of our request is lost; its answer then comes without one (it
    /// acknowledged already). The answer proves our request arrived: we stop retransmitting it and may send our
    /// next message, as the chunked reports of a read or a subscription need.
    @Test func thePeersAnswerSettlesARequestWhoseAcknowledgementWasLost() throws {
        var pair = try SecurePair()
        let (exchange, request) = try pair.request([1], now: .zero)
        let arrived = try pair.device.receive(request, from: "controller", now: milliseconds(1))
        guard case let .newExchange(deviceExchange, _)? = arrived.events().first else {
            Issue.record("the request was not delivered")
            return
        }
        // The device's 200 ms standalone acknowledgement goes out and is lost.
        #expect(pair.device.handleTimer(now: milliseconds(201)).datagrams().count == 1)
        let answer = try pair.device.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 2, payload: [2]), on: deviceExchange,
            now: milliseconds(250)
        ).datagrams()[0]
        #expect(try SecurePair.openFromDevice(answer).protocolHeader.acknowledgedMessageCounter == nil)

        #expect(try pair.controller.receive(answer, from: "device", now: milliseconds(260)).events().count == 1)
        // No retransmission of the request is due any more, and our next message goes out.
        #expect(
            pair.controller.handleTimer(now: milliseconds(5_000)).datagrams().allSatisfy {
                (try? SecurePair.openFromController($0).protocolHeader.opcode) != 1
            })
        let next = try pair.controller.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 3, payload: [3]), on: exchange,
            now: milliseconds(270))
        #expect(next.datagrams().count == 1)
    }
}
