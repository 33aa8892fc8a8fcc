import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

/// Hostile payloads: every message decoder returns or throws `InteractionError`, never crashes or hangs; whatever it
/// accepts re-encodes to a payload that decodes to the same message.
@Suite(.timeLimit(.minutes(1))) struct InteractionMessageFuzzTests {
    private static let iterations = 20_000
    /// Bytes that steer decoders into their edge cases: containers, end, null, booleans, wide integers, tag 0xFF.
    private static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x14, 0x15, 0x16, 0x17, 0x18, 0x24, 0x27, 0x28, 0x29, 0x34, 0x36, 0x37, 0xFF,
    ]

    private static let seeds: [[UInt8]] = [
        CapturedMessages.appleReadRequest, CapturedMessages.appleArmFailSafe, CapturedMessages.rsMatterInvoke,
        CapturedMessages.chipToolReadRequest, CapturedMessages.chipToolReportData, CapturedMessages.lightingReportData,
        CapturedMessages.addTrustedRootResponse,
        StatusResponseMessage(status: .busy).encoded(),
        SubscribeRequestMessage(
            minIntervalFloor: 1, maxIntervalCeiling: 60, attributeRequests: [AttributePathIB()],
            eventRequests: [EventPathIB()],
            dataVersionFilters: [DataVersionFilterIB(path: ClusterPathIB(endpoint: 1, cluster: 6), dataVersion: 3)]
        ).encoded(),
        SubscribeResponseMessage(subscriptionID: 7, maxInterval: 60).encoded(),
        WriteRequestMessage(writeRequests: [
            AttributeDataIB(
                path: AttributePathIB(endpoint: 1, cluster: 6, attribute: 0, listIndex: .append),
                data: TLVElement(.bool(true)))
        ]).encoded(),
        WriteResponseMessage(writeResponses: [
            AttributeStatusIB(path: AttributePathIB(endpoint: 1), status: StatusIB(status: .failure, clusterStatus: 2))
        ]).encoded(),
        TimedRequestMessage(timeout: 500).encoded(),
        ReportDataMessage(
            subscriptionID: 1,
            eventReports: [
                .data(
                    EventDataIB(
                        path: EventPathIB(endpoint: 0, cluster: 0x28, event: 0), eventNumber: 1, priority: 2,
                        timestamp: .systemMilliseconds(5), data: TLVElement(.structure([]))))
            ],
            moreChunkedMessages: true
        ).encoded(),
    ]

    @Test func randomBytesOnlyThrow() throws {
        var generator = SplitMix64(seed: 0x1A7E_0001)
        for _ in 0..<Self.iterations {
            try Self.checkEveryDecoder(generator.bytes(generator.below(48)))
        }
    }

    @Test func mutatedRealMessagesOnlyThrow() throws {
        var generator = SplitMix64(seed: 0x1A7E_0002)
        for _ in 0..<Self.iterations {
            let seed = Self.seeds[generator.below(Self.seeds.count)]
            try Self.checkEveryDecoder(FuzzMutation.mutate(seed, interesting: Self.interestingBytes, using: &generator))
        }
    }

    @Test func transactionsSurviveHostilePeers() {
        var generator = SplitMix64(seed: 0x1A7E_0003)
        var read = ReadTransaction(request: ReadRequestMessage())
        let subscribeRequest = SubscribeRequestMessage(minIntervalFloor: 0, maxIntervalCeiling: 60)
        var subscription = SubscribeTransaction(request: subscribeRequest)
        var invoke = InvokeTransaction(
            command: CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 6, command: 2)), timedWindow: .seconds(1))
        var write = WriteTransaction(writes: [])
        for round in 0..<Self.iterations {
            if round % 50 == 0 {
                _ = read.start()
                // A subscribe transaction starts once: it lets go of its request when it sends it.
                subscription = SubscribeTransaction(request: subscribeRequest)
                _ = subscription.start()
                _ = invoke.start()
                _ = write.start()
            }
            let opcode = UInt8(1 + generator.below(10))
            let payload = FuzzMutation.mutate(
                Self.seeds[generator.below(Self.seeds.count)], interesting: Self.interestingBytes, using: &generator)
            _ = read.receive(opcode: opcode, payload: payload)
            _ = subscription.receive(opcode: opcode, payload: payload)
            _ = invoke.receive(opcode: opcode, payload: payload)
            _ = write.receive(opcode: opcode, payload: payload)
        }
    }

    private static func checkEveryDecoder(_ payload: [UInt8]) throws {
        try check(StatusResponseMessage.self, payload)
        try check(ReadRequestMessage.self, payload)
        try check(SubscribeRequestMessage.self, payload)
        try check(SubscribeResponseMessage.self, payload)
        try check(ReportDataMessage.self, payload)
        try check(WriteRequestMessage.self, payload)
        try check(WriteResponseMessage.self, payload)
        try check(TimedRequestMessage.self, payload)
        try check(InvokeRequestMessage.self, payload)
        try check(InvokeResponseMessage.self, payload)
    }

    private static func check<M: InteractionMessage>(_ type: M.Type, _ payload: [UInt8]) throws {
        guard let message = try? M(payload: payload) else { return }
        #expect(try M(payload: message.encoded()) == message, "\(M.self) unstable for \(payload)")
    }
}
