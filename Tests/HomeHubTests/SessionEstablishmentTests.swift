import HomeRecords
import MatterCrypto
import MatterDiscovery
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterSecureChannel
import MatterTestSupport
import Testing

@testable import HomeHub

/// A PASE responder on its own transport, on loopback: answers one PASE, then echoes what arrives on the
/// secure session. Unicast on ::1 only.
actor LoopbackPASEDevice {
    let transport: MatterTransport
    let port: UInt16
    private var task: Task<Void, Never>?

    init(passcode: UInt32) throws {
        transport = try MatterTransport()
        port = try transport.localPorts().ipv6
        let salt = Array("SPAKE2P Key Salt".utf8)
        let verifier = try Spake2Plus.verifierData(passcode: passcode, salt: salt, iterations: 1000)
        let transport = transport
        task = Task {
            var responder = PASEResponder(
                verifierData: verifier, pbkdfParameters: PBKDFParameters(iterations: 1000, salt: salt),
                localSessionID: 0x4242, random: SystemRandom())
            for await (exchange, first) in transport.incomingExchanges {
                var message: ExchangeMessage? = first
                while let current = message {
                    if current.protocolID != .secureChannel {
                        // On the secure session: echo.
                        try? await transport.send(current, on: exchange)
                        break
                    }
                    var done = false
                    for action in responder.receive(opcode: current.opcode, payload: current.payload) {
                        switch action {
                        case .send(let opcode, let payload):
                            try? await transport.send(
                                ExchangeMessage(protocolID: .secureChannel, opcode: opcode.rawValue, payload: payload),
                                on: exchange)
                        case .established(let session):
                            guard let peer = await transport.peerAddress(of: exchange.session) else { break }
                            _ = try? await transport.addSecureSession(
                                SecureSessionParameters(
                                    localSessionID: session.localSessionID, peerSessionID: session.peerSessionID,
                                    encryptionKey: session.encryptionKey, decryptionKey: session.decryptionKey,
                                    localNonceNodeID: 0, peerNonceNodeID: 0), peer: peer)
                            done = true
                        case .failed:
                            done = true
                        }
                    }
                    message = done ? nil : try? await transport.receive(on: exchange, timeout: .seconds(5))
                }
            }
        }
    }

    func stop() async {
        task?.cancel()
        await transport.shutdown()
    }
}

@Suite(.timeLimit(.minutes(1))) struct SessionEstablishmentTests {
    @Test func establishesPASEOverUDPAndCarriesEncryptedMessages() async throws {
        let device = try LoopbackPASEDevice(passcode: 20_202_021)
        let controller = try MatterTransport()
        let address = SocketAddress.ipv6(IPv6Address(0, 1), port: device.port)
        let result = try await SessionEstablishment.pase(with: .udp(address), passcode: 20_202_021, over: controller)
        #expect(result.established.peerSessionID == 0x4242)
        #expect(SecureChannelLimits.sessionIDs.contains(result.established.localSessionID))

        let exchange = try await controller.openExchange(on: result.session)
        let ping = ExchangeMessage(protocolID: .interactionModel, opcode: 0x02, payload: Array("ping".utf8))
        try await controller.send(ping, on: exchange)
        let echo = try await controller.receive(on: exchange, timeout: .seconds(5))
        #expect(echo == ping)
        await controller.close(exchange)
        await controller.shutdown()
        await device.stop()
    }

    @Test func aWrongPasscodeIsReportedAsSuch() async throws {
        let device = try LoopbackPASEDevice(passcode: 20_202_021)
        let controller = try MatterTransport()
        let address = SocketAddress.ipv6(IPv6Address(0, 1), port: device.port)
        await #expect {
            _ = try await SessionEstablishment.pase(with: .udp(address), passcode: 20_202_022, over: controller)
        } throws: { error in
            "\(error)" == "PASE failed: wrong passcode: the device's PASE confirmation does not match"
        }
        await controller.shutdown()
        await device.stop()
    }
}

@Suite(.timeLimit(.minutes(2))) struct LossyLinkTests {
    /// PASE and 30 request/response exchanges over loopback while the controller's link loses 20% of what it
    /// sends, duplicates 10% and reorders 10%: MRP retransmits, duplicate detection drops the copies.
    @Test func paseAndEncryptedExchangesSurviveALossyLink() async throws {
        let device = try LoopbackPASEDevice(passcode: 20_202_021)
        let conditions = ImpairedSocket.Conditions(loss: 0.2, duplication: 0.1, reordering: 0.1)
        let lossy = try ImpairedSocket(family: .ipv6, conditions: conditions, seed: 7)
        let controller = MatterTransport(
            ipv4: try ImpairedSocket(family: .ipv4, conditions: conditions, seed: 8), ipv6: lossy)
        let address = SocketAddress.ipv6(IPv6Address(0, 1), port: device.port)
        let result = try await SessionEstablishment.pase(with: .udp(address), passcode: 20_202_021, over: controller)
        for index in 0..<30 {
            let exchange = try await controller.openExchange(on: result.session)
            let ping = ExchangeMessage(
                protocolID: .interactionModel, opcode: 0x02, payload: Array("ping \(index)".utf8))
            try await controller.send(ping, on: exchange)
            #expect(try await controller.receive(on: exchange, timeout: .seconds(20)) == ping)
            await controller.close(exchange)
        }
        let statistics = lossy.statistics
        #expect(
            statistics.lost > 0 && statistics.duplicated > 0 && statistics.reordered > 0,
            "the link was not impaired: \(statistics)")
        await controller.shutdown()
        await device.stop()
    }
}
