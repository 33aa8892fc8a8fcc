import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

@Suite struct ReportDataMessageTests {
    @Test func decodesOneAttributeReportFromALightingDevice() throws {
        let report = try ReportDataMessage(payload: CapturedMessages.lightingReportData)
        #expect(report.subscriptionID == nil)
        #expect(report.suppressResponse && !report.moreChunkedMessages)
        #expect(report.interactionModelRevision == 1)
        #expect(
            report.attributeReports == [
                .data(
                    AttributeDataIB(
                        dataVersion: 2_020_087_125, path: AttributePathIB(endpoint: 0, cluster: 0x28, attribute: 9),
                        data: TLVElement(.unsigned(1))))
            ])
        #expect(report.encoded() == CapturedMessages.lightingReportData)
    }

    @Test func decodesTheCommissioningReportWithAStructureValue() throws {
        let report = try ReportDataMessage(payload: CapturedMessages.chipToolReportData)
        #expect(report.attributeReports.count == 8)
        guard case .data(let basicCommissioningInfo) = report.attributeReports[5] else {
            Issue.record("report 5 is not data: \(report.attributeReports[5])")
            return
        }
        #expect(basicCommissioningInfo.dataVersion == 0xD682_ADDD)
        #expect(basicCommissioningInfo.path.concrete == ConcreteAttributePath(endpoint: 0, cluster: 0x30, attribute: 1))
        #expect(basicCommissioningInfo.data == TLVElement(.structure([TLVElement(tag: .context(0), .unsigned(60))])))
        guard case .data(let vendorID) = report.attributeReports[2] else {
            Issue.record("report 2 is not data")
            return
        }
        #expect(vendorID.data == TLVElement(.unsigned(0xFFF1)))
        #expect(report.encoded() == CapturedMessages.chipToolReportData)
    }

    @Test func chunkFlagsAndSubscriptionRoundTrip() throws {
        let status = AttributeStatusIB(
            path: AttributePathIB(endpoint: 1, cluster: 6, attribute: 0x4000),
            status: StatusIB(status: .unsupportedAttribute, clusterStatus: 0))
        let message = ReportDataMessage(
            subscriptionID: 0xDEAD_BEEF, attributeReports: [.status(status)], moreChunkedMessages: true)
        let bytes = message.encoded()
        // SubscriptionId 0xDEADBEEF as a 4-byte unsigned, MoreChunkedMessages true, no SuppressResponse.
        #expect(bytes.starts(with: hex("15 26 00 ef be ad de")))
        #expect(Array(bytes.suffix(7)) == hex("18 29 03 24 ff 0c 18"))
        #expect(try ReportDataMessage(payload: bytes) == message)
    }
}
