import MatterInteraction
import MatterMessaging
import MatterTLV
import Testing
@testable import HomeHub

/// What a loopback device received, for the test to inspect afterwards.
actor Received<Value: Sendable> {
    private(set) var values: [Value] = []
    func append(_ value: Value) { values.append(value) }
}

@Suite(.timeLimit(.minutes(1))) struct InteractionClientTests {
    private static let basicInformationVendorName = AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 1)

    @Test func invokeReturnsTheResponseCommandDecodedAsTheCommandsResponse() async throws {
        let requests = Received<InvokeRequestMessage>()
        let device = try await LoopbackInteractionDevice { exchange in
            let request = try InvokeRequestMessage(payload: exchange.first?.payload ?? [])
            await requests.append(request)
            let fields = ArmFailSafeResponse(errorCode: .busyWithOtherAdmin, debugText: "another admin").tlvValue()
            try await exchange.send(InvokeResponseMessage(invokeResponses: [.command(CommandDataIB(
                path: CommandPathIB(endpoint: 0, cluster: 0x0030, command: 0x01), fields: TLVElement(fields)))]))
            await exchange.close()
        }
        let response = try await device.client.invoke(ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 7), endpoint: 0)
        #expect(response == ArmFailSafeResponse(errorCode: .busyWithOtherAdmin, debugText: "another admin"))
        let sent = try #require(await requests.values.first?.invokeRequests.first)
        #expect(sent.path == CommandPathIB(endpoint: 0, cluster: 0x0030, command: 0x00))
        #expect(try ArmFailSafe(tlv: #require(sent.fields)) == ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 7))
        await device.stop()
    }

    @Test func anErrorStatusIsNamedWithTheOperation() async throws {
        let device = try await LoopbackInteractionDevice { exchange in
            let path = CommandPathIB(endpoint: 0, cluster: 0x0030, command: 0x00)
            try await exchange.send(InvokeResponseMessage(invokeResponses: [.status(CommandStatusIB(
                path: path, status: StatusIB(status: .unsupportedCommand)))]))
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
        let device = try await LoopbackInteractionDevice { exchange in
            let request = try InvokeRequestMessage(payload: exchange.first?.payload ?? [])
            let path = try #require(request.invokeRequests.first).path
            try await exchange.send(InvokeResponseMessage(invokeResponses: [.status(CommandStatusIB(
                path: path, status: StatusIB(status: .success)))]))
            await exchange.close()
        }
        let root = try await device.client.invoke(AddTrustedRootCertificate(rootCACertificate: [1, 2, 3]), endpoint: 0)
        #expect(root == DefaultSuccess())
        let raw = try await device.client.invoke(endpoint: 1, cluster: 0x0006, command: 0x01, fields: .structure([]))
        #expect(raw == nil)
        await #expect {
            _ = try await device.client.invoke(CommissioningComplete(), endpoint: 0)
        } throws: { error in
            "\(error)" == "invoke GeneralCommissioning.CommissioningComplete on endpoint 0: "
                + "expected response command 0x5, the device answered a plain SUCCESS status"
        }
        await device.stop()
    }

    @Test func aReadJoinsTwoChunksAndAcknowledgesTheFirst() async throws {
        let acknowledgements = Received<InteractionModelStatus>()
        let device = try await LoopbackInteractionDevice { exchange in
            let request = try ReadRequestMessage(payload: exchange.first?.payload ?? [])
            #expect(request.attributeRequests == [Self.basicInformationVendorName, AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 2)])
            try await exchange.send(ReportDataMessage(attributeReports: [.data(AttributeDataIB(
                dataVersion: 5, path: Self.basicInformationVendorName, data: TLVElement(.utf8("CircuitMatter"))))],
                moreChunkedMessages: true))
            await acknowledgements.append(try await exchange.receiveStatus())
            try await exchange.send(ReportDataMessage(attributeReports: [.data(AttributeDataIB(
                dataVersion: 5, path: AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 2), data: TLVElement(.unsigned(0xFFF4))))],
                suppressResponse: true))
            await exchange.close()
        }
        let report = try await device.client.read([Self.basicInformationVendorName, AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 2)])
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        #expect(try cache.value(BasicInformation.vendorName, endpoint: 0) == "CircuitMatter")
        #expect(try cache.value(BasicInformation.vendorID, endpoint: 0) == 0xFFF4)
        #expect(await acknowledgements.values == [.success])
        await device.stop()
    }

    @Test func aSilentDeviceTimesOutNamingTheRead() async throws {
        let device = try await LoopbackInteractionDevice { _ in }
        let started = ContinuousClock.now
        await #expect {
            _ = try await device.client.read([Self.basicInformationVendorName], timeout: .milliseconds(500))
        } throws: { error in
            "\(error)" == "read endpoint 0, cluster 0x0028, attribute 0x0001: timed out after 500 ms"
        }
        #expect(ContinuousClock.now - started >= .milliseconds(500))
        await device.stop()
    }

    @Test func aWriteReturnsEveryPathsStatusAndNamesAFailedOne() async throws {
        let device = try await LoopbackInteractionDevice { exchange in
            let request = try WriteRequestMessage(payload: exchange.first?.payload ?? [])
            let statuses = request.writeRequests.map { write in
                AttributeStatusIB(path: write.path, status: StatusIB(status: write.path.attribute == 5 ? .success : .unsupportedWrite))
            }
            try await exchange.send(WriteResponseMessage(writeResponses: statuses))
            await exchange.close()
        }
        let label = AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 5)
        let statuses = try await device.client.write([AttributeDataIB(path: label, data: TLVElement(.utf8("Kitchen")))])
        #expect(statuses == [AttributeStatusIB(path: label, status: StatusIB(status: .success))])
        let vendorName = Self.basicInformationVendorName
        await #expect {
            _ = try await device.client.write([AttributeDataIB(path: vendorName, data: TLVElement(.utf8("x")))])
        } throws: { error in
            (error as? InteractionClientError)?.status == .unsupportedWrite
                && "\(error)".hasPrefix("write endpoint 0, cluster 0x0028, attribute 0x0001: UNSUPPORTED_WRITE")
        }
        await device.stop()
    }
}
