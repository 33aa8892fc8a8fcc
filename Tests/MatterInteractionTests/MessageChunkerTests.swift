import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct MessageChunkerTests {
    static func onOff(_ endpoint: UInt16) -> AttributeReportIB {
        .data(
            AttributeDataIB(
                dataVersion: 1, path: AttributePathIB(endpoint: endpoint, cluster: 6, attribute: 0),
                data: TLVElement(.bool(true))))
    }

    @Test func smallReportIsOneMessage() throws {
        let chunks = MessageChunker.reportData(
            attributeReports: [Self.onOff(1)], eventReports: [], subscriptionID: 4, suppressLastResponse: true)
        #expect(
            chunks == [
                ReportDataMessage(subscriptionID: 4, attributeReports: [Self.onOff(1)], suppressResponse: true)
                    .encoded()
            ])
    }

    @Test func emptyReportIsStillAMessage() {
        let chunks = MessageChunker.reportData(
            attributeReports: [], eventReports: [], subscriptionID: 9, suppressLastResponse: false)
        #expect(chunks == [ReportDataMessage(subscriptionID: 9).encoded()])
    }

    @Test func manyReportsFillMessagesUpToTheLimitInOrder() throws {
        let reports = (0..<400).map { Self.onOff(UInt16($0)) }
        let event = EventReportIB.data(
            EventDataIB(
                path: EventPathIB(endpoint: 1, cluster: 0x3B, event: 1), eventNumber: 5, priority: 1,
                timestamp: .systemMilliseconds(9), data: nil))
        let chunks = MessageChunker.reportData(
            attributeReports: reports, eventReports: [event], subscriptionID: nil, suppressLastResponse: true)
        let messages = try chunks.map { try ReportDataMessage(payload: $0) }
        #expect(messages.count > 1)
        #expect(chunks.allSatisfy { $0.count <= InteractionConstants.maximumServerPayload })
        // Full: each message but the last could not have taken the next report.
        #expect(chunks.dropLast().allSatisfy { $0.count > InteractionConstants.maximumServerPayload - 40 })
        #expect(messages.flatMap(\.attributeReports) == reports)
        #expect(messages.flatMap(\.eventReports) == [event])
        #expect(messages.dropLast().allSatisfy { $0.moreChunkedMessages && !$0.suppressResponse })
        #expect(messages.last.map { !$0.moreChunkedMessages && $0.suppressResponse } == true)
    }

    @Test func longListBecomesAnEmptyListAndAppendsThatRebuildIt() throws {
        let items = (0..<100).map { TLVElement(.utf8("item number \($0)")) }
        let path = AttributePathIB(endpoint: 0, cluster: 0x41, attribute: 0)
        let list = AttributeReportIB.data(AttributeDataIB(dataVersion: 3, path: path, data: TLVElement(.array(items))))
        let chunks = MessageChunker.reportData(
            attributeReports: [list], eventReports: [], subscriptionID: 1, suppressLastResponse: false)
        let reports = try chunks.flatMap { try ReportDataMessage(payload: $0).attributeReports }
        #expect(chunks.count > 1)
        #expect(chunks.allSatisfy { $0.count <= InteractionConstants.maximumServerPayload })
        #expect(reports.count == 101)
        #expect(reports.first == .data(AttributeDataIB(dataVersion: 3, path: path, data: TLVElement(.array([])))))
        #expect(reports.dropFirst().allSatisfy { $0.path.listIndex == .append })
        var cache = AttributeCache()
        cache.apply(reports)
        #expect(cache.value(endpoint: 0, cluster: 0x41, attribute: 0) == TLVElement(.array(items)))
    }

    @Test func invokeResponsesChunkWithMoreChunkedMessages() throws {
        let responses = (0..<200).map { index in
            InvokeResponseIB.status(
                CommandStatusIB(
                    path: CommandPathIB(endpoint: 1, cluster: 6, command: 1), status: StatusIB(status: .success),
                    commandRef: UInt16(index)))
        }
        let messages = try MessageChunker.invokeResponses(responses).map { try InvokeResponseMessage(payload: $0) }
        #expect(messages.count > 1)
        #expect(messages.flatMap(\.invokeResponses) == responses)
        #expect(messages.map(\.moreChunkedMessages) == Array(repeating: true, count: messages.count - 1) + [false])
    }
}
