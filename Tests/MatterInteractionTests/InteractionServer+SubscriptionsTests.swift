import MatterMessaging
import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InteractionServerSubscriptionsTests {
    typealias F = ServerFixture
    static let onOffPath = F.path(1, ToyDataModel.onOff, 0x0000)
    static let pressPath = EventPathIB(endpoint: 1, cluster: ToyDataModel.switchCluster, event: 0x01)

    /// Subscribes on `exchange` and runs the priming dance; returns the subscription ID.
    static func subscribe(
        _ server: inout InteractionServer<ToyDataModel>, paths: [AttributePathIB] = [onOffPath],
        events: [EventPathIB] = [], floor: UInt16 = 2, ceiling: UInt16 = 60, keep: Bool = true,
        exchange: ExchangeHandle = F.exchange(1), context: AccessContext = F.admin,
        now: Instant = .zero
    ) throws -> UInt32 {
        let request = SubscribeRequestMessage(
            keepSubscriptions: keep, minIntervalFloor: floor, maxIntervalCeiling: ceiling,
            attributeRequests: paths, eventRequests: events)
        var actions = server.receive(.subscribeRequest, request.encoded(), on: exchange, context: context, now: now)
        while try F.reports(actions).first != nil {
            actions = server.receive(
                .statusResponse, F.statusResponse(.success), on: exchange, context: context, now: now)
        }
        let response = try SubscribeResponseMessage(
            payload: try #require(F.sent(actions).first { $0.0 == .subscribeResponse }?.1))
        #expect(F.closes(actions, exchange))
        return response.subscriptionID
    }

    /// The report an `.openExchangeAndSend` carries, after binding the exchange the driver opened for it.
    static func openedReport(
        _ actions: [ServerAction], server: inout InteractionServer<ToyDataModel>,
        exchange: ExchangeHandle
    ) throws -> ReportDataMessage? {
        guard
            case .openExchangeAndSend(let session, .reportData, let payload, let id)? = actions.first(where: {
                if case .openExchangeAndSend = $0 { true } else { false }
            })
        else { return nil }
        #expect(session == F.session)
        server.reportExchangeOpened(exchange, subscriptionID: id)
        return try ReportDataMessage(payload: payload)
    }

    @Test func primingReportThenSubscribeResponseWithTheCeilingAsMaxInterval() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        let request = SubscribeRequestMessage(
            minIntervalFloor: 1, maxIntervalCeiling: 120, attributeRequests: [Self.onOffPath])
        let priming = server.receive(.subscribeRequest, request.encoded(), on: exchange)
        let report = try #require(only(try F.reports(priming)))
        #expect(report.subscriptionID == 1 && !report.suppressResponse && !report.moreChunkedMessages)
        #expect(
            report.attributeReports == [
                .data(AttributeDataIB(dataVersion: 106, path: Self.onOffPath, data: TLVElement(.bool(false))))
            ])
        #expect(!F.closes(priming, exchange))
        let done = server.receive(.statusResponse, F.statusResponse(.success), on: exchange)
        #expect(
            done == [
                .send(
                    .subscribeResponse, SubscribeResponseMessage(subscriptionID: 1, maxInterval: 120).encoded(),
                    on: exchange),
                .closeExchange(exchange),
            ])
        #expect(server.subscriptionIDs == [1])
        #expect(server.nextDeadline == F.at(seconds: 119))
    }

    @Test(arguments: [
        SubscribeRequestMessage(minIntervalFloor: 10, maxIntervalCeiling: 5, attributeRequests: [onOffPath]),
        SubscribeRequestMessage(minIntervalFloor: 0, maxIntervalCeiling: 5),
    ])
    func impossibleSubscriptionIsAnInvalidAction(request: SubscribeRequestMessage) throws {
        var server = InteractionServer(provider: ToyDataModel())
        #expect(try F.status(server.receive(.subscribeRequest, request.encoded(), on: F.exchange(1))) == .invalidAction)
        #expect(server.subscriptionIDs.isEmpty)
    }

    @Test func changeIsReportedOnceTheMinIntervalHasPassed() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let id = try Self.subscribe(&server, floor: 2)
        server.provider.onOffValue = true
        #expect(server.attributesChanged([Self.onOffPath.concrete!], now: F.at(seconds: 0.5)).isEmpty)
        #expect(server.nextDeadline == F.at(seconds: 2))
        #expect(server.tick(now: F.at(seconds: 1.9)).isEmpty)
        let actions = server.tick(now: F.at(seconds: 2))
        let reportExchange = F.exchange(900, role: .initiator)
        let report = try #require(try Self.openedReport(actions, server: &server, exchange: reportExchange))
        #expect(report.subscriptionID == id && !report.suppressResponse)
        #expect(
            report.attributeReports == [
                .data(AttributeDataIB(dataVersion: 106, path: Self.onOffPath, data: TLVElement(.bool(true))))
            ])
        #expect(server.tick(now: F.at(seconds: 3)).isEmpty)
        #expect(
            server.receive(.statusResponse, F.statusResponse(.success), on: reportExchange, now: F.at(seconds: 3)) == [
                .closeExchange(reportExchange)
            ])
        #expect(server.nextDeadline == F.at(seconds: 61))
    }

    @Test func changeOutsideTheSubscribedPathsIsNotReported() throws {
        var server = InteractionServer(provider: ToyDataModel())
        _ = try Self.subscribe(&server, floor: 0)
        #expect(
            server.attributesChanged(
                [ConcreteAttributePath(endpoint: 2, cluster: 8, attribute: 0)], now: F.at(seconds: 5)
            ).isEmpty)
    }

    @Test func writeMarksTheWrittenAttributeForSubscribers() throws {
        var server = InteractionServer(provider: ToyDataModel())
        _ = try Self.subscribe(&server, paths: [F.path(1, 6, nil)], floor: 0)
        let write = AttributeDataIB(path: F.path(1, 6, 0x4001), data: TLVElement(.unsigned(9)))
        _ = server.receive(
            .writeRequest, WriteRequestMessage(writeRequests: [write]).encoded(), on: F.exchange(2),
            now: F.at(seconds: 1))
        let report = try #require(
            try Self.openedReport(
                server.tick(now: F.at(seconds: 1)), server: &server, exchange: F.exchange(900, role: .initiator)))
        #expect(
            report.attributeReports == [
                .data(AttributeDataIB(dataVersion: 107, path: F.path(1, 6, 0x4001), data: TLVElement(.unsigned(9))))
            ])
    }

    @Test func keepAliveGoesOutShortlyBeforeTheMaxInterval() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let id = try Self.subscribe(&server, floor: 0, ceiling: 10)
        #expect(server.nextDeadline == F.at(seconds: 9))
        #expect(server.tick(now: F.at(seconds: 8.9)).isEmpty)
        let report = try #require(
            try Self.openedReport(
                server.tick(now: F.at(seconds: 9)), server: &server, exchange: F.exchange(900, role: .initiator)))
        #expect(report == ReportDataMessage(subscriptionID: id))
    }

    @Test func twoSubscriptionsReportEachItsOwnPaths() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let first = try Self.subscribe(&server, floor: 0, exchange: F.exchange(1))
        let second = try Self.subscribe(&server, paths: [F.path(2, nil, nil)], floor: 0, exchange: F.exchange(2))
        #expect(server.subscriptionIDs == [first, second])
        server.provider.currentLevel = 50
        let actions = server.attributesChanged(
            [ConcreteAttributePath(endpoint: 2, cluster: 8, attribute: 0), Self.onOffPath.concrete!],
            now: F.at(seconds: 1))
        let ids = actions.compactMap { if case .openExchangeAndSend(_, _, _, let id) = $0 { id } else { nil } }
        #expect(ids == [first, second])
        let level = try ReportDataMessage(payload: F.sent(actions)[1].1)
        #expect(level.attributeReports.map(\.path) == [F.path(2, 8, 0)])
    }

    @Test func failedReportExchangeDropsTheSubscription() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let id = try Self.subscribe(&server, floor: 0, ceiling: 10)
        let reportExchange = F.exchange(900, role: .initiator)
        _ = try Self.openedReport(server.tick(now: F.at(seconds: 9)), server: &server, exchange: reportExchange)
        server.exchangeFailed(reportExchange)
        #expect(server.subscriptionIDs.isEmpty)
        #expect(server.nextDeadline == nil)
        #expect(server.cancelSubscription(id).isEmpty)
    }

    @Test func refusedOrUnansweredReportDropsTheSubscription() throws {
        var server = InteractionServer(provider: ToyDataModel())
        _ = try Self.subscribe(&server, floor: 0, ceiling: 10, exchange: F.exchange(1))
        _ = try Self.subscribe(&server, floor: 0, ceiling: 10, exchange: F.exchange(2))
        let first = F.exchange(900, role: .initiator)
        let second = F.exchange(901, role: .initiator)
        let actions = server.tick(now: F.at(seconds: 9))
        let opened = actions.compactMap { if case .openExchangeAndSend(_, _, _, let id) = $0 { id } else { nil } }
        server.reportExchangeOpened(first, subscriptionID: opened[0])
        server.reportExchangeOpened(second, subscriptionID: opened[1])
        #expect(
            server.receive(.statusResponse, F.statusResponse(.invalidSubscription), on: first, now: F.at(seconds: 9))
                == [.closeExchange(first)])
        #expect(server.subscriptionIDs == [opened[1]])
        let deadline = F.at(seconds: 9) + InteractionTiming.serverResponseTimeout
        #expect(server.nextDeadline == deadline)
        #expect(server.tick(now: deadline) == [.closeExchange(second)])
        #expect(server.subscriptionIDs.isEmpty)
    }

    @Test func reportWhoseExchangeWasNeverOpenedDropsTheSubscription() throws {
        var server = InteractionServer(provider: ToyDataModel())
        _ = try Self.subscribe(&server, floor: 0, ceiling: 10)
        _ = server.tick(now: F.at(seconds: 9))
        _ = server.tick(now: F.at(seconds: 9) + InteractionTiming.serverResponseTimeout)
        #expect(server.subscriptionIDs.isEmpty)
    }

    @Test func keepSubscriptionsFalseEndsTheSubscribersEarlierOnesOnItsFabricOnly() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let mine = try Self.subscribe(&server, exchange: F.exchange(1))
        var otherFabric = F.admin
        otherFabric.fabricIndex = 2
        let theirs = try Self.subscribe(&server, exchange: F.exchange(2), context: otherFabric)
        let replacement = try Self.subscribe(&server, keep: false, exchange: F.exchange(3))
        #expect(server.subscriptionIDs == [theirs, replacement])
        #expect(!server.subscriptionIDs.contains(mine))
    }

    @Test func subscriptionsAreBounded() throws {
        var server = InteractionServer(provider: ToyDataModel())
        for index in 0..<InteractionConstants.maximumServedSubscriptions {
            _ = try Self.subscribe(&server, exchange: F.exchange(UInt16(index)))
        }
        let request = SubscribeRequestMessage(
            minIntervalFloor: 0, maxIntervalCeiling: 60, attributeRequests: [Self.onOffPath])
        #expect(
            try F.status(server.receive(.subscribeRequest, request.encoded(), on: F.exchange(999)))
                == .resourceExhausted)
    }

    @Test func primingAndLaterReportsCarryNewEvents() throws {
        var server = InteractionServer(provider: ToyDataModel())
        server.provider.press(position: 1, at: 10)
        let exchange = F.exchange(1)
        let request = SubscribeRequestMessage(
            minIntervalFloor: 0, maxIntervalCeiling: 60, eventRequests: [Self.pressPath])
        let priming = try #require(
            only(try F.reports(server.receive(.subscribeRequest, request.encoded(), on: exchange))))
        #expect(priming.eventReports == [.data(server.provider.recordedEvents[0])])
        _ = server.receive(.statusResponse, F.statusResponse(.success), on: exchange)
        #expect(server.tick(now: F.at(seconds: 1)).isEmpty)
        server.provider.press(position: 0, at: 1200)
        #expect(server.nextDeadline == .zero)
        let report = try #require(
            try Self.openedReport(
                server.tick(now: F.at(seconds: 1.2)), server: &server, exchange: F.exchange(900, role: .initiator)))
        #expect(report.eventReports == [.data(server.provider.recordedEvents[1])])
    }

    @Test func subscriberWithoutAccessGetsNoReportOfTheAttribute() throws {
        var provider = ToyDataModel()
        provider.grants = [F.viewer.subject: .view]
        var server = InteractionServer(provider: provider)
        _ = try Self.subscribe(&server, floor: 0, context: F.viewer)
        server.provider.grants = [:]
        let report = try #require(
            try Self.openedReport(
                server.attributesChanged([Self.onOffPath.concrete!], now: F.at(seconds: 1)), server: &server,
                exchange: F.exchange(900, role: .initiator)))
        #expect(report.attributeReports.isEmpty)
    }
}
