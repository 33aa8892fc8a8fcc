import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterTLV
import Testing

@testable import HomeHub

@Suite(.timeLimit(.minutes(1))) struct InteractionClientClusterCommandTests {
    typealias ArmFailSafe = GeneralCommissioningCluster.Commands.ArmFailSafe
    typealias ArmFailSafeResponse = GeneralCommissioningCluster.Commands.ArmFailSafeResponse

    /// InvokeRequest ArmFailSafe (ExpiryLengthSeconds 60, Breadcrumb 3) as an iPhone sent it right after PASE
    /// (published in a device firmware's test suite, test_matter_im.c "apple_armfailsafe"), revision 12.
    static let iPhoneArmFailSafe = hex(
        """
        15 28 00 28 01 36 02 15 37 00 24 00 00 24 01 30 24 02 00 18 35 01 24 00 3c 24 01 03
        18 18 18 24 ff 0c 18
        """)

    @Test func armFailSafeGoesOutAsAnIPhoneSendsItAndItsResponseComesBackDecoded() async throws {
        let requests = Received<[UInt8]>()
        let device = try await LoopbackInteractionDevice { exchange in
            await requests.append(exchange.first?.payload ?? [])
            let fields = ArmFailSafeResponse(errorCode: .busyWithOtherAdmin, debugText: "another admin").tlvValue()
            try await exchange.send(
                InvokeResponseMessage(invokeResponses: [
                    .command(
                        CommandDataIB(
                            path: CommandPathIB(endpoint: 0, cluster: 0x0030, command: 0x01), fields: TLVElement(fields)
                        ))
                ]))
            await exchange.close()
        }
        let response = try await device.client.invoke(ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 3), endpoint: 0)
        #expect(response == ArmFailSafeResponse(errorCode: .busyWithOtherAdmin, debugText: "another admin"))
        #expect(await requests.values == [Self.iPhoneArmFailSafe])
        await device.stop()
    }

    @Test func anErrorStatusIsNamedWithTheOperation() async throws {
        let device = try await LoopbackInteractionDevice { exchange in
            let path = CommandPathIB(endpoint: 0, cluster: 0x0030, command: 0x00)
            try await exchange.send(
                InvokeResponseMessage(invokeResponses: [
                    .status(
                        CommandStatusIB(
                            path: path, status: StatusIB(status: .unsupportedCommand)))
                ]))
            await exchange.close()
        }
        await #expect {
            _ = try await device.client.invoke(ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 1), endpoint: 0)
        } throws: { error in
            "\(error)" == "invoke GeneralCommissioning.ArmFailSafe on endpoint 0: UNSUPPORTED_COMMAND ("
                + InteractionModelStatus.unsupportedCommand.explanation + ")"
                && (error as? InteractionClientError)?.status == .unsupportedCommand
        }
        await device.stop()
    }

    @Test func aPlainSuccessAnswersACommandWithoutResponseAndFailsOneThatHasOne() async throws {
        let opcodes = Received<UInt8>()
        let device = try await LoopbackInteractionDevice { exchange in
            await opcodes.append(exchange.first?.opcode ?? 0)
            let request = try InvokeRequestMessage(payload: exchange.first?.payload ?? [])
            let path = try #require(request.invokeRequests.first).path
            try await exchange.send(
                InvokeResponseMessage(invokeResponses: [
                    .status(
                        CommandStatusIB(
                            path: path, status: StatusIB(status: .success)))
                ]))
            await exchange.close()
        }
        let root = try await device.client.invoke(
            OperationalCredentialsCluster.Commands.AddTrustedRootCertificate(rootCACertificate: [1, 2, 3]), endpoint: 0)
        #expect(root == DefaultSuccess())
        let raw = try await device.client.invoke(endpoint: 1, cluster: 0x0006, command: 0x01, fields: .structure([]))
        #expect(raw == nil)
        await #expect {
            _ = try await device.client.invoke(
                GeneralCommissioningCluster.Commands.CommissioningComplete(), endpoint: 0)
        } throws: { error in
            "\(error)" == "invoke GeneralCommissioning.CommissioningComplete on endpoint 0: "
                + "expected response command 0x5, the device answered a plain SUCCESS status"
        }
        // None of these commands must be timed, so each went out as an InvokeRequest alone.
        #expect(await opcodes.values == Array(repeating: InteractionModelOpcode.invokeRequest.rawValue, count: 3))
        await device.stop()
    }

    @Test func aResponseMissingAFieldIsMalformed() async throws {
        let device = try await LoopbackInteractionDevice { exchange in
            try await exchange.send(
                InvokeResponseMessage(invokeResponses: [
                    .command(
                        CommandDataIB(
                            path: CommandPathIB(endpoint: 0, cluster: 0x0030, command: 0x01),
                            fields: TLVElement(.structure([TLVElement(tag: .context(0), .unsigned(0))]))))
                ]))
            await exchange.close()
        }
        await #expect {
            _ = try await device.client.invoke(ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 1), endpoint: 0)
        } throws: { error in
            "\(error)"
                == "invoke GeneralCommissioning.ArmFailSafe on endpoint 0: malformed response fields: missing field 1"
        }
        await device.stop()
    }

    @Test func aCommandThatMustBeTimedIsPrecededByATimedRequestOfTheHubsWindowOrTheCallers() async throws {
        let timeouts = Received<UInt16>()
        let device = try await LoopbackInteractionDevice { exchange in
            #expect(exchange.first?.opcode == InteractionModelOpcode.timedRequest.rawValue)
            await timeouts.append(try TimedRequestMessage(payload: exchange.first?.payload ?? []).timeout)
            try await exchange.send(StatusResponseMessage(status: .success))
            let invoke = try await exchange.receive()
            #expect(invoke.opcode == InteractionModelOpcode.invokeRequest.rawValue)
            let request = try InvokeRequestMessage(payload: invoke.payload)
            #expect(request.timedRequest)
            let path = try #require(request.invokeRequests.first).path
            #expect(path == CommandPathIB(endpoint: 0, cluster: 0x003C, command: 0x02))
            try await exchange.send(
                InvokeResponseMessage(invokeResponses: [
                    .status(
                        CommandStatusIB(
                            path: path, status: StatusIB(status: .success)))
                ]))
            await exchange.close()
        }
        typealias RevokeCommissioning = AdministratorCommissioningCluster.Commands.RevokeCommissioning
        #expect(RevokeCommissioning.requiresTimedInvoke)
        #expect(try await device.client.invoke(RevokeCommissioning(), endpoint: 0) == DefaultSuccess())
        #expect(
            try await device.client.invoke(RevokeCommissioning(), endpoint: 0, timedWindow: .milliseconds(2500))
                == DefaultSuccess())
        #expect(await timeouts.values == [UInt16(NodeTiming.timedInvokeWindow / .milliseconds(1)), 2500])
        await device.stop()
    }
}
