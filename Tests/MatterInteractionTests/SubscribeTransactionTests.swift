import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct SubscribeTransactionTests {
    static let success = SubscriptionAction.send(.statusResponse, StatusResponseMessage(status: .success).encoded())
    static let request = SubscribeRequestMessage(
        minIntervalFloor: 0, maxIntervalCeiling: 60, attributeRequests: [AttributePathIB()])

    static func onOff(_ value: Bool, version: UInt32) -> AttributeReportIB {
        .data(
            AttributeDataIB(
                dataVersion: version, path: AttributePathIB(endpoint: 1, cluster: 6, attribute: 0),
                data: TLVElement(.bool(value))))
    }

    static func report(
        _ reports: [AttributeReportIB], id: UInt32 = 7, more: Bool = false, suppress: Bool = false
    ) -> [UInt8] {
        ReportDataMessage(
            subscriptionID: id, attributeReports: reports, moreChunkedMessages: more, suppressResponse: suppress
        ).encoded()
    }

    /// A subscription through priming (two chunks) and SubscribeResponse, as CircuitMatter runs it.
    static func established() -> SubscribeTransaction {
        var subscription = SubscribeTransaction(request: request)
        _ = subscription.start()
        _ = subscription.receive(opcode: 0x05, payload: report([onOff(false, version: 1)], more: true))
        _ = subscription.receive(opcode: 0x05, payload: report([]))
        _ = subscription.receive(
            opcode: 0x04, payload: SubscribeResponseMessage(subscriptionID: 7, maxInterval: 60).encoded())
        return subscription
    }

    @Test func sendsTheSubscribeRequest() {
        var subscription = SubscribeTransaction(request: Self.request)
        #expect(subscription.start() == .send(.subscribeRequest, Self.request.encoded()))
        #expect(subscription.subscriptionID == nil)
    }

    @Test func primingChunksAreAcknowledgedThenTheResponseEstablishes() {
        var subscription = SubscribeTransaction(request: Self.request)
        _ = subscription.start()
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([Self.onOff(false, version: 1)], more: true)) == [
                Self.success
            ])
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([Self.onOff(true, version: 2)])) == [Self.success])
        #expect(subscription.subscriptionID == nil)
        let actions = subscription.receive(
            opcode: 0x04, payload: SubscribeResponseMessage(subscriptionID: 7, maxInterval: 120).encoded())
        #expect(
            actions == [
                .established(
                    subscriptionID: 7, maxInterval: .seconds(120),
                    priming: InteractionReport(attributeReports: [
                        Self.onOff(false, version: 1), Self.onOff(true, version: 2),
                    ]))
            ])
        #expect(subscription.subscriptionID == 7)
    }

    @Test func laterReportsAreAcknowledgedAndDelivered() {
        var subscription = Self.established()
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([Self.onOff(true, version: 3)]))
                == [Self.success, .report(InteractionReport(attributeReports: [Self.onOff(true, version: 3)]))])
        // A keep-alive asks for no answer (CircuitMatter sends one every max − 1 seconds).
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([], suppress: true)) == [
                .report(InteractionReport())
            ])
    }

    @Test func aChunkedLaterReportIsDeliveredWhole() {
        var subscription = Self.established()
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([Self.onOff(true, version: 3)], more: true)) == [
                Self.success
            ])
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([Self.onOff(false, version: 4)]))
                == [
                    Self.success,
                    .report(
                        InteractionReport(attributeReports: [
                            Self.onOff(true, version: 3), Self.onOff(false, version: 4),
                        ])),
                ])
    }

    @Test func aReportForAnotherSubscriptionIsRefusedAndChangesNothing() {
        var subscription = Self.established()
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([Self.onOff(true, version: 3)], id: 8))
                == [.send(.statusResponse, StatusResponseMessage(status: .invalidSubscription).encoded())])
        #expect(subscription.subscriptionID == 7)
        #expect(
            subscription.receive(opcode: 0x05, payload: Self.report([], suppress: true)) == [
                .report(InteractionReport())
            ])
    }

    @Test func aResponseForAnotherSubscriptionFails() {
        var subscription = SubscribeTransaction(request: Self.request)
        _ = subscription.start()
        _ = subscription.receive(opcode: 0x05, payload: Self.report([]))
        #expect(
            subscription.receive(
                opcode: 0x04, payload: SubscribeResponseMessage(subscriptionID: 9, maxInterval: 60).encoded())
                == [.failed(.subscriptionMismatch(expected: 7, received: 9))])
    }

    @Test func aRefusedSubscriptionFailsWithTheStatus() {
        var subscription = SubscribeTransaction(request: Self.request)
        _ = subscription.start()
        #expect(
            subscription.receive(opcode: 0x01, payload: StatusResponseMessage(status: .resourceExhausted).encoded())
                == [.failed(.status(StatusIB(status: .resourceExhausted), path: nil))])
    }

    @Test func theResponseMustFollowTheLastPrimingChunk() {
        var subscription = SubscribeTransaction(request: Self.request)
        _ = subscription.start()
        _ = subscription.receive(opcode: 0x05, payload: Self.report([], more: true))
        #expect(
            subscription.receive(
                opcode: 0x04, payload: SubscribeResponseMessage(subscriptionID: 7, maxInterval: 60).encoded())
                == [.failed(.unexpectedMessage(opcode: 0x04, expecting: "the priming ReportData"))])
    }
}
