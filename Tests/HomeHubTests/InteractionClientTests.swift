import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterTLV
import MatterTestSupport
import MatterTime
import Testing

@testable import HomeHub

/// What a loopback device received, for the test to inspect afterwards.
actor Received<Value: Sendable> {
    private(set) var values: [Value] = []
    func append(_ value: Value) { values.append(value) }
}

@Suite(.timeLimit(.minutes(1))) struct InteractionClientTests {
    private static let basicInformationVendorName = AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 1)

    @Test func aReadJoinsTwoChunksAndAcknowledgesTheFirst() async throws {
        let acknowledgements = Received<InteractionModelStatus>()
        let device = try await LoopbackInteractionDevice { exchange in
            let request = try ReadRequestMessage(payload: exchange.first?.payload ?? [])
            #expect(
                request.attributeRequests == [
                    Self.basicInformationVendorName, AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 2),
                ])
            try await exchange.send(
                ReportDataMessage(
                    attributeReports: [
                        .data(
                            AttributeDataIB(
                                dataVersion: 5, path: Self.basicInformationVendorName,
                                data: TLVElement(.utf8("CircuitMatter"))))
                    ],
                    moreChunkedMessages: true))
            await acknowledgements.append(try await exchange.receiveStatus())
            try await exchange.send(
                ReportDataMessage(
                    attributeReports: [
                        .data(
                            AttributeDataIB(
                                dataVersion: 5, path: AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 2),
                                data: TLVElement(.unsigned(0xFFF4))))
                    ],
                    suppressResponse: true))
            await exchange.close()
        }
        let report = try await device.client.read([
            Self.basicInformationVendorName, AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 2),
        ])
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        #expect(try cache.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0) == "CircuitMatter")
        #expect(try cache.value(BasicInformationCluster.Attributes.vendorID, endpoint: 0) == 0xFFF4)
        #expect(await acknowledgements.values == [.success])
        await device.stop()
    }

    /// On virtual time: the read gives up exactly at its timeout.
    @Test func aSilentDeviceTimesOutNamingTheRead() async throws {
        let network = ClockedNetwork(clock: ManualClock(), seed: 2)
        let device = try await LoopbackInteractionDevice(network: network) { _ in }
        let started = network.clock.now
        let outcome = try #require(
            await drive(network.clock) { () -> String in
                do {
                    _ = try await device.client.read([Self.basicInformationVendorName], timeout: .milliseconds(500))
                    return "no error"
                } catch {
                    return "\(error)"
                }
            })
        #expect(outcome.value == "read endpoint 0, cluster 0x0028, attribute 0x0001: timed out after 500 ms")
        #expect(outcome.at - started >= .milliseconds(500) && outcome.at - started <= .milliseconds(510))
        await device.stop()
    }

    @Test func aWriteReturnsEveryPathsStatusAndNamesAFailedOne() async throws {
        let device = try await LoopbackInteractionDevice { exchange in
            let request = try WriteRequestMessage(payload: exchange.first?.payload ?? [])
            let statuses = request.writeRequests.map { write in
                AttributeStatusIB(
                    path: write.path, status: StatusIB(status: write.path.attribute == 5 ? .success : .unsupportedWrite)
                )
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
