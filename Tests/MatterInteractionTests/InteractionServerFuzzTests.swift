import MatterMessaging
import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

/// Hostile requests: whatever arrives, on whichever exchange and in whatever order, the server answers only with
/// well-formed messages of the opcodes a server sends, keeps its subscriptions bounded, and leaves no deadline in
/// the past after a tick.
@Suite(.timeLimit(.minutes(1))) struct InteractionServerFuzzTests {
    private static let iterations = 20_000
    private static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x08, 0x09, 0x15, 0x16, 0x17, 0x18, 0x24, 0x25, 0x26, 0x28, 0x29, 0x34, 0x35, 0x36, 0x37, 0xFF,
    ]

    private static let seeds: [(InteractionModelOpcode, [UInt8])] = [
        (
            .readRequest,
            ReadRequestMessage(
                attributeRequests: [AttributePathIB(), AttributePathIB(endpoint: 1, cluster: 6, attribute: 0)],
                eventRequests: [EventPathIB()], eventFilters: [EventFilterIB(eventMinimum: 1)],
                dataVersionFilters: [
                    DataVersionFilterIB(path: ClusterPathIB(endpoint: 2, cluster: 8), dataVersion: 108)
                ]
            ).encoded()
        ),
        (
            .subscribeRequest,
            SubscribeRequestMessage(
                keepSubscriptions: false, minIntervalFloor: 0, maxIntervalCeiling: 5,
                attributeRequests: [AttributePathIB(endpoint: 2)], eventRequests: [EventPathIB(endpoint: 1)]
            ).encoded()
        ),
        (
            .writeRequest,
            WriteRequestMessage(
                writeRequests: [
                    AttributeDataIB(
                        dataVersion: 106, path: AttributePathIB(endpoint: 1, cluster: 6, attribute: 0x4001),
                        data: TLVElement(.unsigned(3))),
                    AttributeDataIB(
                        path: AttributePathIB(endpoint: 2, cluster: 0x41, attribute: 0, listIndex: .append),
                        data: TLVElement(.structure([]))),
                ], moreChunkedMessages: true
            ).encoded()
        ),
        (
            .invokeRequest,
            InvokeRequestMessage(
                timedRequest: true,
                invokeRequests: [
                    CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 0x101, command: 0), commandRef: 1),
                    CommandDataIB(
                        path: CommandPathIB(endpoint: 2, cluster: 8, command: 0),
                        fields: TLVElement(.structure([TLVElement(tag: .context(0), .unsigned(4))])), commandRef: 2),
                ]
            ).encoded()
        ),
        (
            .invokeRequest,
            InvokeRequestMessage(invokeRequests: [
                CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 6, command: 2))
            ]).encoded()
        ),
        (
            .subscribeRequest,
            SubscribeRequestMessage(
                minIntervalFloor: 1, maxIntervalCeiling: 3,
                attributeRequests: [AttributePathIB(endpoint: 1, cluster: 6)]
            ).encoded()
        ),
        (.timedRequest, TimedRequestMessage(timeout: 200).encoded()),
        (.statusResponse, StatusResponseMessage(status: .success).encoded()),
    ]

    @Test func mutatedAndRandomRequestsOnlyGetWellFormedAnswers() throws {
        var generator = SplitMix64(seed: 0x5E4E_0001)
        var server = InteractionServer(provider: ToyDataModel())
        var now = Instant.zero
        var nextReportExchange: UInt16 = 1000
        var answered: Set<InteractionModelOpcode> = []
        for round in 0..<Self.iterations {
            now = now + .milliseconds(generator.below(400))
            let (seedOpcode, seed) = Self.seeds[generator.below(Self.seeds.count)]
            let payload =
                switch generator.below(8) {
                case 0: generator.bytes(generator.below(40))
                case 1, 2: seed
                default: FuzzMutation.mutate(seed, interesting: Self.interestingBytes, using: &generator)
                }
            let opcode = generator.below(4) == 0 ? UInt8(truncatingIfNeeded: generator.next()) : seedOpcode.rawValue
            let exchange = ServerFixture.exchange(UInt16(generator.below(3)))
            let context = generator.below(2) == 0 ? ServerFixture.admin : ServerFixture.viewer
            var actions = server.handle(opcode: opcode, payload: payload, on: exchange, context: context, now: now)
            switch round % 7 {
            case 0: actions += server.tick(now: now)
            case 1:
                actions += server.attributesChanged(
                    [ConcreteAttributePath(endpoint: 2, cluster: 8, attribute: 0)], now: now)
            case 2: server.exchangeFailed(ServerFixture.exchange(UInt16(generator.below(3))))
            default: break
            }
            for action in actions {
                try Self.checkWellFormed(action)
                if case .send(let opcode, _, _) = action { answered.insert(opcode) }
                if case .openExchangeAndSend(_, _, _, let id) = action {
                    server.reportExchangeOpened(
                        ServerFixture.exchange(nextReportExchange, role: .initiator), subscriptionID: id)
                    nextReportExchange &+= 1
                }
            }
            #expect(server.subscriptionIDs.count <= InteractionConstants.maximumServedSubscriptions)
            for action in server.tick(now: now) {
                try Self.checkWellFormed(action)
            }
            if let deadline = server.nextDeadline {
                #expect(deadline > now, "deadline \(deadline) not after the tick at \(now)")
            }
        }
        // The mutations reached every kind of answer, not only refusals.
        #expect(answered == [.statusResponse, .reportData, .subscribeResponse, .writeResponse, .invokeResponse])
    }

    /// Every message the server sends decodes as the message its opcode names, and is one a server sends.
    private static func checkWellFormed(_ action: ServerAction) throws {
        let opcode: InteractionModelOpcode
        let payload: [UInt8]
        switch action {
        case .send(let sentOpcode, let sentPayload, _):
            (opcode, payload) = (sentOpcode, sentPayload)
        case .openExchangeAndSend(_, let sentOpcode, let sentPayload, _):
            #expect(sentOpcode == .reportData)
            (opcode, payload) = (sentOpcode, sentPayload)
        case .closeExchange:
            return
        }
        switch opcode {
        case .statusResponse: _ = try StatusResponseMessage(payload: payload)
        case .reportData: _ = try ReportDataMessage(payload: payload)
        case .subscribeResponse: _ = try SubscribeResponseMessage(payload: payload)
        case .writeResponse: _ = try WriteResponseMessage(payload: payload)
        case .invokeResponse: _ = try InvokeResponseMessage(payload: payload)
        case .readRequest, .subscribeRequest, .writeRequest, .invokeRequest, .timedRequest:
            Issue.record("the server sent a client's \(opcode)")
        }
    }
}
