import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

@Suite struct ReadTransactionTests {
    static let success = StatusResponseMessage(status: .success).encoded()

    static func chunk(attribute: UInt32, more: Bool) -> [UInt8] {
        ReportDataMessage(
            attributeReports: [
                .data(
                    AttributeDataIB(
                        dataVersion: 1, path: AttributePathIB(endpoint: 0, cluster: 0x28, attribute: attribute),
                        data: TLVElement(.unsigned(UInt64(attribute)))))
            ],
            moreChunkedMessages: more, suppressResponse: !more
        ).encoded()
    }

    @Test func sendsTheReadRequest() {
        let request = ReadRequestMessage(attributeRequests: [AttributePathIB(endpoint: 0, cluster: 0x28)])
        var read = ReadTransaction(request: request)
        guard case .send(.readRequest, let payload) = read.start() else {
            Issue.record("did not send a ReadRequest")
            return
        }
        #expect(payload == request.encoded())
    }

    @Test func threeChunksAreAcknowledgedTwiceAndDeliveredOnce() throws {
        var read = ReadTransaction(
            request: ReadRequestMessage(attributeRequests: [AttributePathIB(endpoint: 0, cluster: 0x28)]))
        _ = read.start()
        let first = read.receive(opcode: 0x05, payload: Self.chunk(attribute: 1, more: true))
        let second = read.receive(opcode: 0x05, payload: Self.chunk(attribute: 2, more: true))
        let last = read.receive(opcode: 0x05, payload: Self.chunk(attribute: 3, more: false))
        #expect(first == [.send(.statusResponse, Self.success)])
        #expect(second == [.send(.statusResponse, Self.success)])
        guard case .completed(let report)? = only(last) else {
            Issue.record("last chunk gave \(last)")
            return
        }
        #expect(report.attributeReports.map { $0.path.attribute } == [1, 2, 3])
        // The read is over: anything more is an error, not a second result.
        guard
            case .failed(.unexpectedMessage)? = only(
                read.receive(opcode: 0x05, payload: Self.chunk(attribute: 4, more: false)))
        else {
            Issue.record("a report after the end was accepted")
            return
        }
    }

    @Test func aFinalChunkWithoutSuppressResponseIsAcknowledged() {
        var read = ReadTransaction(request: ReadRequestMessage())
        _ = read.start()
        let actions = read.receive(opcode: 0x05, payload: ReportDataMessage().encoded())
        #expect(actions == [.send(.statusResponse, Self.success), .completed(InteractionReport())])
    }

    @Test func aStatusResponseErrorFailsTheRead() {
        var read = ReadTransaction(request: ReadRequestMessage())
        _ = read.start()
        let actions = read.receive(opcode: 0x01, payload: StatusResponseMessage(status: .unsupportedAccess).encoded())
        #expect(actions == [.failed(.status(StatusIB(status: .unsupportedAccess), path: nil))])
    }

    @Test func aMalformedReportIsRefusedWithInvalidAction() {
        var read = ReadTransaction(request: ReadRequestMessage())
        _ = read.start()
        let actions = read.receive(opcode: 0x05, payload: hex("15 36 01 18"))
        #expect(
            actions == [
                .send(.statusResponse, StatusResponseMessage(status: .invalidAction).encoded()),
                .failed(.malformed(.reportData, .unterminatedContainer(openedAt: 0))),
            ])
    }

    @Test func anotherMessageFailsTheRead() {
        var read = ReadTransaction(request: ReadRequestMessage())
        _ = read.start()
        #expect(
            read.receive(opcode: 0x09, payload: []) == [
                .failed(.unexpectedMessage(opcode: 0x09, expecting: "ReportData"))
            ])
    }

    @Test func aPeerThatNeverStopsChunkingIsCutOff() {
        var read = ReadTransaction(request: ReadRequestMessage())
        _ = read.start()
        let chunk = Self.chunk(attribute: 1, more: true)
        for _ in 0..<InteractionConstants.maximumReportChunks {
            #expect(read.receive(opcode: 0x05, payload: chunk) == [.send(.statusResponse, Self.success)])
        }
        #expect(
            read.receive(opcode: 0x05, payload: chunk) == [
                .send(.statusResponse, StatusResponseMessage(status: .resourceExhausted).encoded()),
                .failed(.tooManyChunks(limit: InteractionConstants.maximumReportChunks)),
            ])
    }
}
