import Foundation
import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterTLV
import Synchronization
import Testing

@testable import HomeHub

@Suite(.timeLimit(.minutes(1))) struct NodeConnectionTests {
    @Test func primingFillsTheCacheThenTheNodeIsOnline() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight()
        await light.start()
        let connection = await fixture.connect(to: light)
        var events = await connection.events().makeAsyncIterator()
        #expect(await events.next() == .connectivity(.connecting))
        let primed = try #require(await events.nextAttributes())
        #expect(
            primed.isSuperset(of: [
                LightDataModel.onOffPath, LightDataModel.levelPath,
                ConcreteAttributePath(endpoint: 0, cluster: 0x0028, attribute: 0x0001),
            ]))
        #expect(await events.next() == .connectivity(.online))

        #expect(try await connection.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0) == "Loopback")
        #expect(try await connection.value(OnOffCluster.Attributes.onOff, endpoint: 1) == false)
        #expect(try await connection.value(LevelControlCluster.Attributes.currentLevel, endpoint: 1) == .value(10))
        // Every attribute of the node, global ones included: 2 + 5 on endpoint 0, 1 + 5 and 1 + 5 on endpoint 1.
        #expect(await connection.cache.paths.count == 19)
        #expect(await fixture.establishments.values == [1])
        await fixture.stop([connection], [light])
    }

    @Test func aChangeOnTheDeviceArrivesAsAnAttributesEventAndLateJoinersSeeTheWholeNodeFirst() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight()
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: 5)
        try await connection.connected()
        var events = await connection.events().makeAsyncIterator()
        #expect(await events.next() == .connectivity(.online))
        #expect(await events.next() == .attributes(Set(await connection.cache.paths)))

        await light.set(isOn: true)
        #expect(await events.nextAttributes() == [LightDataModel.onOffPath])
        #expect(try await connection.value(OnOffCluster.Attributes.onOff, endpoint: 1) == true)
        await fixture.stop([connection], [light])
    }

    /// The owner's observer hears every event from the connection's start, synchronously and in order, with no
    /// `events()` sequence registered: the priming, the node going online, then each change. Each comes with the node
    /// as that event left it, not as it is when the owner gets to it: a value taken in with an earlier event would
    /// never be announced by its own (a contact opened while its feed was behind reached no client).
    @Test func theObserverHearsEveryEventFromTheStartInOrderWithTheNodeAsItLeftIt() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight()
        await light.start()
        let observed = Mutex<[(event: NodeConnection.Event, view: HomeModel.NodeView)]>([])
        let (changes, change) = AsyncStream<Void>.makeStream()
        let connection = await fixture.connect(to: light, maxInterval: 5) { connection, event, view in
            #expect(connection.nodeID == 1)
            observed.withLock { $0.append((event, view)) }
            change.yield()
        }
        var heard = changes.makeAsyncIterator()
        while observed.withLock({ $0.count }) < 2 { _ = await heard.next() }
        await light.set(isOn: true)
        while observed.withLock({ $0.count }) < 3 { _ = await heard.next() }
        let (events, views) = observed.withLock { ($0.map(\.event), $0.map(\.view)) }
        #expect(events.count == 3)
        #expect(events.first == .attributes(Set(await connection.cache.paths)))
        #expect(events.dropFirst().first == .connectivity(.online))
        #expect(events.last == .attributes([LightDataModel.onOffPath]))

        let onOff = { (view: HomeModel.NodeView) in view.cache.value(endpoint: 1, cluster: 6, attribute: 0) }
        #expect(views.map(onOff) == [TLVElement(.bool(false)), TLVElement(.bool(false)), TLVElement(.bool(true))])
        #expect(views.map(\.state) == [.connecting, .online, .online])
        #expect(zip(views, views.dropFirst()).allSatisfy { $0.revision < $1.revision })
        #expect(await connection.view == views.last)
        await fixture.stop([connection], [light])
    }

    /// A connection started from an earlier one's cache (the store's, after a restart) shows it at once, and its first
    /// subscription names every cached cluster's data version: the node's priming brings only the cluster that
    /// changed meanwhile.
    @Test func aStoredCacheIsShownAtOnceAndItsDataVersionsLeaveUnchangedClustersOutOfThePriming() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight()
        await light.start()
        let first = await fixture.connect(to: light, maxInterval: 5)
        try await first.connected()
        let stored = await first.cache
        await first.stop()
        await light.set(isOn: true)

        let primingsBefore = await light.reportedAttributeCounts.count
        let connection = NodeConnection(
            nodeID: 1, transport: fixture.controller, router: fixture.router,
            settings: NodeConnection.Settings(maxIntervalCeiling: 5, responseTimeout: .seconds(5)), cache: stored
        ) { try await light.makeSession(with: fixture.controller) }
        var events = await connection.events().makeAsyncIterator()
        await connection.start()
        #expect(await events.next() == .connectivity(.connecting))
        #expect(await events.next() == .attributes(Set(stored.paths)))
        #expect(await events.nextAttributes() == [LightDataModel.onOffPath])
        #expect(await events.next() == .connectivity(.online))
        #expect(try await connection.value(OnOffCluster.Attributes.onOff, endpoint: 1) == true)

        let request = try #require(await light.subscribeRequests.last)
        #expect(request.dataVersionFilters.count == stored.dataVersionFilters.count)
        #expect(Set(request.dataVersionFilters) == Set(stored.dataVersionFilters))
        // The whole node is 19 attributes; the priming carried OnOff's cluster alone (its attribute and globals).
        let priming = await light.reportedAttributeCounts.dropFirst(primingsBefore).reduce(0, +)
        #expect(priming > 0 && priming < 19)
        #expect(await connection.cache.paths.count == 19)
        await fixture.stop([connection], [light])
    }

    @Test func anUnreachableNodeIsOfflineWithTheReason() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight()
        await light.powerOff()
        let connection = await fixture.connect(to: light, nodeID: 0xAB)
        await #expect(throws: NodeConnectionError.unreachable(nodeID: 0xAB, reason: "the light is off")) {
            try await connection.connected()
        }
        #expect(
            "\(NodeConnectionError.unreachable(nodeID: 0xAB, reason: "the light is off"))"
                == "node 00000000000000AB is unreachable: the light is off")
        guard case .offline(_, "the light is off") = await connection.state else {
            Issue.record("state \(await connection.state)")
            return
        }
        await fixture.stop([connection], [light])
    }
}
