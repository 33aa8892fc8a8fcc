import Testing

@testable import MatterMessaging

@Suite("ExchangeManager timers")
struct ExchangeManagerTimersTests {
    @Test func sendsAStandaloneAcknowledgementExactly200msAfterReceiving() throws {
        var pair = try SecurePair()
        let (exchange, request) = try pair.request([1], now: .zero)
        _ = try pair.device.receive(request, from: "controller", now: milliseconds(10))
        #expect(pair.device.nextDeadline == milliseconds(210))
        #expect(pair.device.handleTimer(now: milliseconds(209.999)).isEmpty)

        let actions = pair.device.handleTimer(now: milliseconds(210))
        #expect(actions.count == 1)
        let ack = try SecurePair.openFromDevice(try #require(actions.datagrams().first)).protocolHeader
        #expect(
            ack.opcode == SecureChannelOpcode.standaloneAcknowledgement.rawValue && ack.protocolID == .secureChannel)
        #expect(ack.acknowledgedMessageCounter == 1 && !ack.needsAcknowledgement)
        #expect(ack.exchangeID == exchange.exchangeID && !ack.isInitiator)
        #expect(pair.device.nextDeadline == nil)

        #expect(try pair.controller.receive(actions.datagrams()[0], from: "device", now: milliseconds(211)).isEmpty)
        #expect(pair.controller.nextDeadline == nil)
        #expect(pair.controller.handleTimer(now: milliseconds(10_000)).isEmpty)
    }

    // Idle peer (never heard from), jitter 0: waits of 550, 550, 880, 1408 and 2252.8 ms.
    @Test func retransmitsTheSameBytesFiveTimesInAllThenFails() throws {
        var manager = ExchangeManager<String>(random: RepeatingRandom([0]))
        let exchange = try manager.openExchange(on: manager.openUnsecuredSession(to: "silent device"))
        let original = try manager.send(pbkdfParamRequest, on: exchange, now: .zero).datagrams()
        #expect(original.count == 1)

        let retransmissionTimes = [550.0, 1100, 1980, 3388]
        for time in retransmissionTimes {
            #expect(manager.nextDeadline == milliseconds(time))
            #expect(manager.handleTimer(now: milliseconds(time - 0.001)).isEmpty)
            #expect(manager.handleTimer(now: milliseconds(time)).datagrams() == original)
        }
        #expect(manager.nextDeadline == milliseconds(5640.8))
        #expect(manager.handleTimer(now: milliseconds(5640.799)).isEmpty)
        let failure = manager.handleTimer(now: milliseconds(5640.8))
        #expect(failure.datagrams().isEmpty)
        let expected = ExchangeError.deliveryFailed(
            exchange, protocolID: .secureChannel, opcode: SecureChannelOpcode.pbkdfParamRequest.rawValue,
            transmissions: 5)
        #expect(failure.failures() == [expected])
        #expect(expected.description.contains("opcode 0x20 after 5 transmissions"))
        #expect(expected.description.contains("exchange 0x0 (initiator)"))
        #expect(manager.nextDeadline == nil)
        #expect(throws: ExchangeError.unknownExchange(exchange)) {
            try manager.send(pbkdfParamRequest, on: exchange, now: milliseconds(6000))
        }
    }

    @Test func stopsRetransmittingOnceAcknowledged() throws {
        var pair = try SecurePair()
        let (_, request) = try pair.request([1], now: .zero)
        // The first copy is lost; the retransmission arrives and is acknowledged.
        let retransmission = pair.controller.handleTimer(now: milliseconds(550)).datagrams()
        #expect(retransmission == [request])
        _ = try pair.device.receive(request, from: "controller", now: milliseconds(551))
        let ack = pair.device.handleTimer(now: milliseconds(751)).datagrams()
        _ = try pair.controller.receive(try #require(ack.first), from: "device", now: milliseconds(752))
        #expect(pair.controller.nextDeadline == nil)
        #expect(pair.controller.handleTimer(now: milliseconds(60_000)).isEmpty)
    }

    @Test func usesTheActiveIntervalOnlyWhileThePeerIsActive() throws {
        var pair = try SecurePair()
        _ = try pair.request([1], now: .zero)
        #expect(pair.controller.nextDeadline == milliseconds(550))

        // The device opens an exchange of its own; the controller hears it at 1000 ms.
        let deviceExchange = try pair.device.openExchange(on: pair.deviceSession)
        let fromDevice = try pair.device.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 1, payload: []), on: deviceExchange, reliably: false,
            now: milliseconds(999))
        _ = try pair.controller.receive(fromDevice.datagrams()[0], from: "device", now: milliseconds(1000))

        // Heard 500 ms ago: active, 300 ms × 1.1.
        let activeExchange = try pair.controller.openExchange(on: pair.controllerSession)
        _ = try pair.controller.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 1, payload: []), on: activeExchange,
            now: milliseconds(1500))
        #expect(pair.controller.exchanges[activeExchange]?.outstanding?.deadline == milliseconds(1830))

        // Heard just over 4 s ago: idle again, 500 ms × 1.1.
        let idleExchange = try pair.controller.openExchange(on: pair.controllerSession)
        _ = try pair.controller.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 1, payload: []), on: idleExchange,
            now: milliseconds(5000.001))
        #expect(pair.controller.exchanges[idleExchange]?.outstanding?.deadline == milliseconds(5550.001))
    }
}
