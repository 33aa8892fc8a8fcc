import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

/// Every message type survives encode → decode unchanged, with all its optional parts present.
@Suite struct InteractionMessageTests {
    static let attributePath = AttributePathIB(endpoint: 1, cluster: 6, attribute: 0)
    static let eventPath = EventPathIB(endpoint: 0, cluster: 0x28, event: 0, isUrgent: true)
    static let commandPath = CommandPathIB(endpoint: 1, cluster: 6, command: 2)
    static let filter = DataVersionFilterIB(path: ClusterPathIB(endpoint: 1, cluster: 6), dataVersion: 0x1234_5678)
    static let onOff = TLVElement(.bool(true))

    static func roundTrip<M: InteractionMessage>(_ message: M) throws -> M {
        try M(payload: message.encoded())
    }

    @Test func statusResponse() throws {
        let message = StatusResponseMessage(status: .needsTimedInteraction)
        #expect(try Self.roundTrip(message) == message)
        #expect(message.encoded() == hex("15 24 00 c6 24 ff 0c 18"))
    }

    @Test func readRequest() throws {
        let message = ReadRequestMessage(
            attributeRequests: [Self.attributePath, AttributePathIB()], eventRequests: [Self.eventPath],
            eventFilters: [EventFilterIB(node: 7, eventMinimum: 42)], isFabricFiltered: false,
            dataVersionFilters: [Self.filter])
        #expect(try Self.roundTrip(message) == message)
    }

    @Test func subscribeRequest() throws {
        let message = SubscribeRequestMessage(
            keepSubscriptions: false, minIntervalFloor: 0, maxIntervalCeiling: 60,
            attributeRequests: [AttributePathIB()],
            eventRequests: [EventPathIB()], eventFilters: [EventFilterIB(eventMinimum: 1)],
            dataVersionFilters: [Self.filter])
        #expect(try Self.roundTrip(message) == message)
    }

    @Test func subscribeResponse() throws {
        let message = SubscribeResponseMessage(subscriptionID: 0xABCD_EF01, maxInterval: 3600)
        #expect(try Self.roundTrip(message) == message)
        #expect(message.encoded() == hex("15 26 00 01 ef cd ab 25 02 10 0e 24 ff 0c 18"))
    }

    @Test func reportDataWithEvents() throws {
        let event = EventDataIB(
            path: Self.eventPath, eventNumber: 9, priority: 2, timestamp: .epochMilliseconds(1_700_000_000_000),
            data: TLVElement(.structure([TLVElement(tag: .context(0), .unsigned(1))])))
        let status = EventStatusIB(path: EventPathIB(endpoint: 3), status: StatusIB(status: .unsupportedEndpoint))
        let message = ReportDataMessage(
            subscriptionID: 1, eventReports: [.data(event), .status(status)], suppressResponse: true)
        #expect(try Self.roundTrip(message) == message)
    }

    @Test(arguments: [
        EventDataIB.Timestamp.epochMilliseconds(1), .systemMilliseconds(2), .deltaEpochMilliseconds(3),
        .deltaSystemMilliseconds(4),
    ])
    func everyEventTimestampForm(_ timestamp: EventDataIB.Timestamp) throws {
        let event = EventDataIB(path: Self.eventPath, eventNumber: 1, priority: 1, timestamp: timestamp, data: nil)
        let message = ReportDataMessage(eventReports: [.data(event)])
        #expect(try Self.roundTrip(message) == message)
    }

    @Test func writeRequestAndResponse() throws {
        let write = WriteRequestMessage(
            suppressResponse: true, timedRequest: true,
            writeRequests: [AttributeDataIB(dataVersion: 3, path: Self.attributePath, data: Self.onOff)],
            moreChunkedMessages: true)
        #expect(try Self.roundTrip(write) == write)
        let response = WriteResponseMessage(writeResponses: [
            AttributeStatusIB(path: Self.attributePath, status: StatusIB(status: .constraintError, clusterStatus: 2))
        ])
        #expect(try Self.roundTrip(response) == response)
    }

    @Test func timedRequest() throws {
        let message = TimedRequestMessage(timeout: 10_000)
        #expect(try Self.roundTrip(message) == message)
        #expect(message.encoded() == hex("15 25 00 10 27 24 ff 0c 18"))
    }

    @Test func invokeRequestAndResponse() throws {
        let request = InvokeRequestMessage(
            suppressResponse: true, timedRequest: true,
            invokeRequests: [
                CommandDataIB(path: Self.commandPath, fields: TLVElement(.structure([])), commandRef: 1)
            ])
        #expect(try Self.roundTrip(request) == request)
        let response = InvokeResponseMessage(
            invokeResponses: [
                .command(
                    CommandDataIB(
                        path: Self.commandPath,
                        fields: TLVElement(.structure([TLVElement(tag: .context(0), .utf8("ok"))])))),
                .status(
                    CommandStatusIB(
                        path: Self.commandPath, status: StatusIB(status: .failure, clusterStatus: 1), commandRef: 2)),
            ], moreChunkedMessages: true)
        #expect(try Self.roundTrip(response) == response)
    }

    @Test func aPayloadThatIsNotAStructureIsMalformed() {
        #expect(
            throws: InteractionError.malformed(
                .subscribeResponse, .typeMismatch(expected: .structure, found: .unsignedInteger))
        ) {
            try SubscribeResponseMessage(payload: hex("24 00 01"))
        }
    }
}
