import MatterMessaging
import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InteractionServerReadTests {
    typealias F = ServerFixture

    static func read(
        _ paths: [AttributePathIB], events: [EventPathIB] = [], eventMinimum: UInt64? = nil,
        filters: [DataVersionFilterIB] = [], provider: ToyDataModel = ToyDataModel(),
        context: AccessContext = F.admin
    ) throws -> (ReportDataMessage, [ServerAction]) {
        var server = InteractionServer(provider: provider)
        let request = ReadRequestMessage(
            attributeRequests: paths, eventRequests: events,
            eventFilters: eventMinimum.map { [EventFilterIB(eventMinimum: $0)] } ?? [],
            dataVersionFilters: filters)
        let actions = server.receive(.readRequest, request.encoded(), on: F.exchange(1), context: context)
        return (try #require(only(try F.reports(actions))), actions)
    }

    @Test func concretePathGetsItsValueAndDataVersionInOneSuppressedMessage() throws {
        let (report, actions) = try Self.read([F.path(2, ToyDataModel.level, 0x0000)])
        #expect(
            report.attributeReports == [
                .data(AttributeDataIB(dataVersion: 108, path: F.path(2, 8, 0), data: TLVElement(.unsigned(10))))
            ])
        #expect(report.suppressResponse && !report.moreChunkedMessages && report.subscriptionID == nil)
        #expect(actions.last == .closeExchange(F.exchange(1)))
    }

    @Test func wildcardAttributeExpandsToTheClusterAndItsGlobalAttributes() throws {
        let (report, _) = try Self.read([F.path(1, ToyDataModel.onOff, nil)])
        let ids = report.attributeReports.compactMap { $0.path.attribute }
        #expect(ids == [0x0000, 0x4001, 0xFFF8, 0xFFF9, 0xFFFB, 0xFFFC, 0xFFFD])
        let values = Dictionary(
            uniqueKeysWithValues: report.attributeReports.compactMap { report -> (UInt32, TLVValue)? in
                guard case .data(let data) = report, let id = data.path.attribute else { return nil }
                return (id, data.data.value)
            })
        let list = { (ids: [UInt64]) in TLVValue.array(ids.map { TLVElement(.unsigned($0)) }) }
        #expect(values[0xFFFB] == list([0x0000, 0x4001, 0xFFF8, 0xFFF9, 0xFFFB, 0xFFFC, 0xFFFD]))
        #expect(values[0xFFF9] == list([0, 1, 2]))
        #expect(values[0xFFF8] == list([]))
        #expect(values[0xFFFC] == .unsigned(1))
        #expect(values[0xFFFD] == .unsigned(6))
    }

    @Test func wildcardEndpointCoversEveryEndpointWithTheCluster() throws {
        let (report, _) = try Self.read([F.path(nil, nil, 0xFFFD)])
        let clusters = report.attributeReports.map { ($0.path.endpoint ?? 0, $0.path.cluster ?? 0) }
        #expect(clusters.map(\.0) == [1, 1, 1, 1, 2, 2])
        #expect(clusters.map(\.1) == [0x06, 0x3B, 0x30, 0x101, 0x08, 0x41])
    }

    @Test(arguments: [
        (F.path(9, 0x0006, 0x0000), InteractionModelStatus.unsupportedEndpoint),
        (F.path(1, 0x0008, 0x0000), .unsupportedCluster),
        (F.path(1, 0x0006, 0x1234), .unsupportedAttribute),
    ])
    func concretePathThatDoesNotExistGetsItsStatus(path: AttributePathIB, status: InteractionModelStatus) throws {
        let (report, _) = try Self.read([path])
        #expect(report.attributeReports == [.status(AttributeStatusIB(path: path, status: StatusIB(status: status)))])
    }

    @Test func wildcardOverWhatDoesNotExistReportsNothing() throws {
        let (report, _) = try Self.read([F.path(9, nil, nil), F.path(nil, 0x0300, nil)])
        #expect(report.attributeReports.isEmpty)
        #expect(report.suppressResponse)
    }

    @Test func dataVersionFiltersSkipCurrentClustersOnly() throws {
        let current = DataVersionFilterIB(path: ClusterPathIB(endpoint: 1, cluster: 6), dataVersion: 106)
        let stale = DataVersionFilterIB(path: ClusterPathIB(endpoint: 2, cluster: 8), dataVersion: 7)
        let (report, _) = try Self.read(
            [F.path(1, 6, 0), F.path(2, 8, 0), F.path(1, 6, nil)], filters: [current, stale])
        #expect(report.attributeReports.map(\.path) == [F.path(2, 8, 0)])
    }

    @Test func deniedConcretePathGetsUnsupportedAccessAndWildcardsLeaveItOut() throws {
        var provider = ToyDataModel()
        provider.grants = [F.viewer.subject: .view]
        let (report, _) = try Self.read([F.path(1, 6, 0), F.path(1, 0x30, nil)], provider: provider, context: F.viewer)
        #expect(
            report.attributeReports.first
                == .data(AttributeDataIB(dataVersion: 106, path: F.path(1, 6, 0), data: TLVElement(.bool(false)))))
        var stranger = F.viewer
        stranger.subject = 0x9999
        let (denied, _) = try Self.read([F.path(1, 6, 0), F.path(1, nil, nil)], provider: provider, context: stranger)
        #expect(
            denied.attributeReports == [
                .status(AttributeStatusIB(path: F.path(1, 6, 0), status: StatusIB(status: .unsupportedAccess)))
            ])
    }

    @Test func eventsAreFilteredByPathAndMinimumAndUnknownEventsGetAStatus() throws {
        var provider = ToyDataModel()
        provider.press(position: 1, at: 1000)
        provider.press(position: 0, at: 1500)
        provider.press(position: 1, at: 2000)
        let press = EventPathIB(endpoint: 1, cluster: ToyDataModel.switchCluster, event: 0x01)
        let unknown = EventPathIB(endpoint: 1, cluster: ToyDataModel.switchCluster, event: 0x07)
        let (report, _) = try Self.read([], events: [press, unknown], eventMinimum: 2, provider: provider)
        #expect(
            report.eventReports == [
                .status(EventStatusIB(path: unknown, status: StatusIB(status: .unsupportedEvent))),
                .data(provider.recordedEvents[1]), .data(provider.recordedEvents[2]),
            ])
        let (none, _) = try Self.read([], events: [EventPathIB(endpoint: 2)], provider: provider)
        #expect(none.eventReports.isEmpty)
    }

    @Test func malformedOrEmptyRequestIsRefusedWithInvalidAction() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let garbage = server.receive(.readRequest, [0x15, 0x18], on: F.exchange(1))
        #expect(try F.status(garbage) == .invalidAction)
        #expect(F.closes(garbage, F.exchange(1)))
        let empty = server.receive(.readRequest, ReadRequestMessage().encoded(), on: F.exchange(2))
        #expect(try F.status(empty) == .invalidAction)
    }

    @Test func largeReadGoesInChunksEachAfterTheClientsStatusResponse() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        var actions = server.receive(
            .readRequest, ReadRequestMessage(attributeRequests: [F.path(2, nil, nil)]).encoded(), on: exchange)
        var chunks: [ReportDataMessage] = []
        while let chunk = try F.reports(actions).first {
            chunks.append(chunk)
            #expect(F.sent(actions).allSatisfy { $0.1.count <= InteractionConstants.maximumServerPayload })
            guard chunk.moreChunkedMessages else { break }
            #expect(!chunk.suppressResponse && !F.closes(actions, exchange))
            actions = server.receive(.statusResponse, F.statusResponse(.success), on: exchange)
        }
        #expect(chunks.count >= 3)
        #expect(chunks.last?.suppressResponse == true)
        #expect(F.closes(actions, exchange))
        var cache = AttributeCache()
        cache.apply(chunks.flatMap(\.attributeReports))
        #expect(
            cache.value(endpoint: 2, cluster: ToyDataModel.userLabel, attribute: 0)
                == TLVElement(.array(ToyDataModel().labels)))
        #expect(server.nextDeadline == nil)
    }

    @Test func errorStatusFromTheClientEndsAChunkedRead() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        _ = server.receive(
            .readRequest, ReadRequestMessage(attributeRequests: [F.path(2, nil, nil)]).encoded(), on: exchange)
        let actions = server.receive(.statusResponse, F.statusResponse(.resourceExhausted), on: exchange)
        #expect(actions == [.closeExchange(exchange)])
        #expect(server.nextDeadline == nil)
    }

    @Test func silentClientIsGivenUpAfterTheResponseTimeout() {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        _ = server.receive(
            .readRequest, ReadRequestMessage(attributeRequests: [F.path(2, nil, nil)]).encoded(), on: exchange)
        let deadline = Instant.zero + InteractionTiming.serverResponseTimeout
        #expect(server.nextDeadline == deadline)
        #expect(server.tick(now: deadline + .nanoseconds(-1)).isEmpty)
        #expect(server.tick(now: deadline) == [.closeExchange(exchange)])
        #expect(server.nextDeadline == nil)
    }
}
