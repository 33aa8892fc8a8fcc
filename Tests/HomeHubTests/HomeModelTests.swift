import Foundation
import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterPlatform
import MatterTLV
import Testing

@testable import HomeHub

/// Bounded: a listener that never hears its change fails the test instead of hanging the run.
@Suite(.timeLimit(.minutes(1))) struct HomeModelTests {
    /// A commissioned node with one On/Off light endpoint, named `name`, as the commissioner leaves it.
    @discardableResult
    static func addLight(
        _ store: HubStore, _ nodeID: UInt64, named name: String, room: String? = nil
    ) async throws
        -> [DeviceID]
    {
        try await store.beginCommissioning(
            nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8000,
            attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
        try await store.setEndpoints(
            [
                EndpointDeviceType(endpoint: 0, deviceType: 0x0016, revision: 1),
                EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3),
            ], of: nodeID)
        try await store.markCommissioned(nodeID)
        return try await store.addDevices(of: nodeID, named: name, inRoom: room)
    }

    static func onOff(_ on: Bool, version: UInt32) -> (AttributeCache, Set<ConcreteAttributePath>) {
        var cache = AttributeCache()
        let changed = cache.apply([
            .data(
                AttributeDataIB(
                    dataVersion: version, path: AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0),
                    data: TLVElement(.bool(on))))
        ])
        return (cache, changed)
    }

    static func changes(_ update: HomeModel.Update?) -> [HomeModel.Change]? {
        if case .changes(let changes)? = update { changes } else { nil }
    }

    @Test func loadsTheHomeAndTakesInACommitBeforeTheWriteReturns() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let lamp = try await Self.addLight(store, 0x11, named: "Lamp")[0]
            let model = try await HomeModel(store: store)
            #expect(model.devices(of: 0x11)?.map(\.name) == ["Lamp"])
            #expect(model.snapshot.structures.map(\.name) == ["Home"])

            var home = model.changes(.home).makeAsyncIterator()
            // Through another connection, as the commissioner writes: memory has it when the call returns.
            let other = try await HubStore(path: base + "/hub.sqlite")
            try await other.renameDevice(lamp, to: "Desk lamp")
            #expect(model.devices(of: 0x11)?.map(\.name) == ["Desk lamp"])
            #expect(Self.changes(await home.next()) == [.deviceRenamed(lamp)])

            let den = try await other.createRoom(named: "Den", in: try #require(model.snapshot.defaultStructureID))
            #expect(Self.changes(await home.next()) == [.roomAdded(den.id)])
            try await other.moveDevices([lamp], toRoom: den.id)
            #expect(Self.changes(await home.next()) == [.deviceMoved(lamp)])
            try await other.deleteRoom(den.id)
            #expect(Self.changes(await home.next()) == [.roomRemoved(den.id), .deviceMoved(lamp)])
            #expect(model.devices(of: 0x11)?.first?.roomID == nil)

            try await other.deleteNode(0x11)
            #expect(Self.changes(await home.next()) == [.deviceRemoved(lamp)])
            #expect(model.devices(of: 0x11) == nil)
        }
    }

    /// A node a crash left past AddNOC is no device, but the model lists it until it is finished or forgotten, and a
    /// mirror (a client of the hub) follows the same list.
    @Test func anInterruptedNodeIsListedUntilItIsFinishedOrForgotten() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x21, vendorID: 0xFFF1, productID: 0x8001, attestation: .init(verdict: "test", trusted: true))
            let model = try await HomeModel(store: store)
            #expect(model.snapshot.interrupted.isEmpty, "a commissioning under way is not interrupted")
            let mirror = model.withSnapshot { HomeModel(mirroring: $0) }
            model.observe { snapshot, changes in
                mirror.applyMirrored(HomeModel.MirroredChanges(changes, snapshot: snapshot))
            }
            var home = model.changes(.home).makeAsyncIterator()

            try await store.markFailed(0x21)
            #expect(Self.changes(await home.next()) == [.interruptedNode(0x21)])
            #expect(model.snapshot.interrupted[0x21]?.productID == 0x8001)
            #expect(model.snapshot.devices[0x21] == nil)
            #expect(mirror.snapshot.interrupted == model.snapshot.interrupted)
            try await store.beginCommissioning(
                nodeID: 0x22, vendorID: 0xFFF1, productID: 0x8002, attestation: .init(verdict: "test", trusted: true))
            try await store.markFailed(0x22)
            _ = await home.next()
            // A fresh load reads the same list.
            #expect(try await HomeModel(store: store).snapshot.interrupted == model.snapshot.interrupted)

            // Finished: it leaves the list as its devices arrive, in one batch.
            let devices = try await store.finishCommissioning(
                0x21, description: nil, addresses: [], mrpParameters: nil, deviceName: "Lamp", room: nil,
                resuming: .failed)
            let finished = try #require(Self.changes(await home.next()))
            #expect(finished.contains(.interruptedNode(0x21)))
            #expect(devices.allSatisfy { finished.contains(.deviceAdded($0)) })
            #expect(model.snapshot.interrupted.keys.sorted() == [0x22])
            // Forgotten (removed, or rolled back by its fail-safe).
            try await store.deleteNode(0x22)
            #expect(Self.changes(await home.next()) == [.interruptedNode(0x22)])
            #expect(model.snapshot.interrupted.isEmpty)
            #expect(mirror.snapshot.interrupted.isEmpty)
            #expect(mirror.snapshot.devices == model.snapshot.devices)
        }
    }

    @Test func aNodeListenerHearsItsOwnNodeOnlyAndTheHomeListenerNoAttributes() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await Self.addLight(store, 0x11, named: "Lamp")
            try await Self.addLight(store, 0x22, named: "Desk")
            let model = try await HomeModel(store: store)
            var home = model.changes(.home).makeAsyncIterator()
            var lamp = model.changes(.node(0x11)).makeAsyncIterator()
            var all = model.changes(.all).makeAsyncIterator()

            let (cache, changed) = Self.onOff(true, version: 1)
            model.nodeReported(0x22, view: HomeModel.NodeView(cache: cache, state: .online), changed: changed)
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: cache, state: .online), changed: changed)
            let path = ConcreteAttributePath(endpoint: 1, cluster: 0x0006, attribute: 0)
            let lampAttributes = HomeModel.Change.attributes(
                nodeID: 0x11, endpoint: 1, values: [path: TLVElement(.bool(true))])
            // The node's own listener: its connectivity and values, nothing of the other node.
            #expect(Self.changes(await lamp.next()) == [.connectivity(0x11, .online), lampAttributes])
            // The home: both nodes' connectivity, no values.
            #expect(Self.changes(await home.next()) == [.connectivity(0x22, .online)])
            #expect(Self.changes(await home.next()) == [.connectivity(0x11, .online)])
            #expect(Self.changes(await all.next())?.count == 2)
            #expect(model.view(of: 0x11)?.state == .online)

            // The same report again changes nothing the home shows: the home listener hears nothing of it.
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: cache, state: .online), changed: [])
            try await store.renameDevice(DeviceID(nodeID: 0x22, endpoint: 1), to: "Desk lamp")
            #expect(
                Self.changes(await home.next()) == [.deviceRenamed(DeviceID(nodeID: 0x22, endpoint: 1))])
        }
    }

    @Test("a report naming paths whose values the model already holds is no change; a new value is")
    func aRepeatedValueIsNoChange() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await Self.addLight(store, 0x11, named: "Lamp")
            let model = try await HomeModel(store: store)
            var lamp = model.changes(.node(0x11)).makeAsyncIterator()
            let (on, changed) = Self.onOff(true, version: 1)
            let path = ConcreteAttributePath(endpoint: 1, cluster: 0x0006, attribute: 0)
            // A first contact takes the primed cache in (news, every value); the priming report that follows repeats it.
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: on, state: .online), changed: [])
            #expect(
                Self.changes(await lamp.next())
                    == [
                        .connectivity(0x11, .online),
                        .attributes(nodeID: 0x11, endpoint: 1, values: [path: TLVElement(.bool(true))]),
                    ])
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: on, state: .online), changed: changed)
            let (off, _) = Self.onOff(false, version: 2)
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: off, state: .online), changed: changed)
            #expect(
                Self.changes(await lamp.next())
                    == [.attributes(nodeID: 0x11, endpoint: 1, values: [path: TLVElement(.bool(false))])])
        }
    }

    /// A connection starts from the stored cache, so its first view holds values its first report did not change: a
    /// client's mirror, which learns values only from changes, must hear them all the same.
    @Test func aFirstViewIsNewsInEveryValueItHolds() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await Self.addLight(store, 0x11, named: "Lamp")
            let model = try await HomeModel(store: store)
            let mirror = model.withSnapshot { HomeModel(mirroring: $0) }
            model.observe { snapshot, changes in
                mirror.applyMirrored(HomeModel.MirroredChanges(changes, snapshot: snapshot))
            }
            var lamp = model.changes(.node(0x11)).makeAsyncIterator()
            let stored = ConcreteAttributePath(endpoint: 1, cluster: 0x0006, attribute: 0x4000)
            var (cache, changed) = Self.onOff(true, version: 1)
            // A value the connection had from the store, unchanged by its first report.
            cache.apply([
                .data(
                    AttributeDataIB(
                        dataVersion: 1, path: AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0x4000),
                        data: TLVElement(.bool(true))))
            ])
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: cache, state: .online), changed: changed)
            let onOff = ConcreteAttributePath(endpoint: 1, cluster: 0x0006, attribute: 0)
            let values: [ConcreteAttributePath: TLVElement?] = [
                onOff: TLVElement(.bool(true)), stored: TLVElement(.bool(true)),
            ]
            #expect(
                Self.changes(await lamp.next())
                    == [.connectivity(0x11, .online), .attributes(nodeID: 0x11, endpoint: 1, values: values)])
            #expect(
                mirror.view(of: 0x11)?.cache.value(endpoint: 1, cluster: 0x0006, attribute: 0x4000)
                    == TLVElement(.bool(true)))

            // Held, the view's next report is news only in what it changed.
            var next = cache
            let turnedOff = next.apply([
                .data(
                    AttributeDataIB(
                        dataVersion: 2, path: AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0),
                        data: TLVElement(.bool(false))))
            ])
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: next, state: .online), changed: turnedOff)
            #expect(
                Self.changes(await lamp.next())
                    == [.attributes(nodeID: 0x11, endpoint: 1, values: [onOff: TLVElement(.bool(false))])])
        }
    }

    /// A view read from the connection ahead of its feed (a command's refresh) is newer than the feed's events still
    /// queued: those change no value back, and their events are still heard.
    @Test("a view older than the one the model holds changes no value back; its events are still news")
    func anOlderViewChangesNothingButItsEvents() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await Self.addLight(store, 0x11, named: "Lamp")
            let model = try await HomeModel(store: store)
            var lamp = model.changes(.node(0x11)).makeAsyncIterator()
            let (off, changed) = Self.onOff(false, version: 1)
            let (on, _) = Self.onOff(true, version: 2)
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: on, state: .online, revision: 7), changed: changed)
            let path = ConcreteAttributePath(endpoint: 1, cluster: 0x0006, attribute: 0)
            #expect(
                Self.changes(await lamp.next())
                    == [
                        .connectivity(0x11, .online),
                        .attributes(nodeID: 0x11, endpoint: 1, values: [path: TLVElement(.bool(true))]),
                    ])

            let event = NodeEvent(
                endpoint: 1, cluster: ClusterID(rawValue: 0x0006), event: EventID(rawValue: 0), number: 1,
                priority: .info, timestamp: .systemMilliseconds(10), data: nil)
            model.nodeReported(
                0x11, view: HomeModel.NodeView(cache: off, state: .connecting, revision: 6), changed: changed,
                events: [event])
            #expect(Self.changes(await lamp.next()) == [.event(nodeID: 0x11, event)])
            #expect(model.view(of: 0x11)?.revision == 7)
            #expect(model.view(of: 0x11)?.cache.value(endpoint: 1, cluster: 6, attribute: 0) == TLVElement(.bool(true)))
        }
    }

    @Test func aRefusedWriteAndAFailedTransactionChangeNothingInMemory() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let lamp = try await Self.addLight(store, 0x11, named: "Lamp")[0]
            let model = try await HomeModel(store: store)
            let before = model.snapshot
            var home = model.changes(.home).makeAsyncIterator()

            await #expect(throws: HubStoreError.self) {
                try await store.renameDevice(DeviceID(nodeID: 0x99, endpoint: 1), to: "X")
            }
            // A transaction that dies half-way, after its first statement: rolled back, nothing committed.
            struct Interrupted: Error {}
            await #expect(throws: HubStoreError.self) {
                try await store.onQueue { () throws(HubStoreError) in
                    try store.write(touching: [0x11]) { transaction in
                        try transaction.query("UPDATE devices SET name = 'Half'")
                        throw Interrupted()
                    }
                }
            }
            #expect(model.snapshot == before)
            // Reloaded from the store, the home is what memory holds: what was committed.
            #expect(try await HomeModel(store: store).snapshot == model.snapshot)

            try await store.renameDevice(lamp, to: "Desk lamp")
            // The first change heard is the rename: the refused and interrupted writes published nothing.
            #expect(Self.changes(await home.next()) == [.deviceRenamed(lamp)])
        }
    }

    /// A process that dies after its commit but before its memory took it in loses nothing: the store has it, and
    /// a model loading the store (the next process) equals one that took it in.
    @Test func aCommitMemoryNeverSawIsWhatTheNextLoadHas() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await Self.addLight(store, 0x11, named: "Lamp")
            let survivor = try await HomeModel(store: store)
            // Committed outside every observer, as by a process that died at once.
            try store.database.execute("UPDATE devices SET name = 'Renamed'")
            let reloaded = try await HomeModel(store: store)
            #expect(reloaded.devices(of: 0x11)?.map(\.name) == ["Renamed"])
            #expect(survivor.devices(of: 0x11)?.map(\.name) == ["Lamp"])
        }
    }

    /// Another process's commit reaches memory through the store's change marker, with no write in this process.
    @Test func anotherProcessesCommitIsTakenInFromTheChangeMarker() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let lamp = try await Self.addLight(store, 0x11, named: "Lamp")[0]
            let model = try await HomeModel(store: store)
            var home = model.changes(.home).makeAsyncIterator()
            // As another process does: its commit is invisible to this process's observers; then the marker.
            try store.database.execute(
                "UPDATE devices SET name = 'Hall lamp'; UPDATE change_counter SET value = value + 1")
            FileChangeWatch.signal(store.changeMarkerPath)
            #expect(Self.changes(await home.next()) == [.deviceRenamed(lamp)])
            #expect(model.devices(of: 0x11)?.map(\.name) == ["Hall lamp"])
        }
    }

    @Test func aListenerThatFallsBehindIsToldSoAndThenHearsWhatFollows() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await Self.addLight(store, 0x11, named: "Lamp")
            let model = try await HomeModel(store: store)
            var lamp = model.changes(.node(0x11)).makeAsyncIterator()
            for version in 1...UInt32(HubConstants.modelListenerBacklog + 10) {
                let (cache, changed) = Self.onOff(version.isMultiple(of: 2), version: version)
                model.nodeReported(0x11, view: HomeModel.NodeView(cache: cache, state: .online), changed: changed)
            }
            guard case .fellBehind? = await lamp.next() else {
                Issue.record("a listener whose backlog overflowed was not told it fell behind")
                return
            }
            #expect(Self.changes(await lamp.next())?.count == 1)
        }
    }

    @Test func aReleasedListenerGivesBackItsPlace() async throws {
        try await withTemporaryDirectory { base in
            let model = try await HomeModel(store: try await HubStore(path: base + "/hub.sqlite"))
            do {
                let changes = model.changes(.home)
                let iterator = changes.makeAsyncIterator()
                #expect(model.listenerCount == 1)
                withExtendedLifetime(iterator) {}
            }
            #expect(model.listenerCount == 0)
        }
    }
}

extension HomeModelTests {
    @Test func eventsReachTheirNodesListenersOnceAndTheRecentOnesAreKept() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await Self.addLight(store, 0x11, named: "Lamp")
            let model = try await HomeModel(store: store)
            var node = model.changes(.node(0x11)).makeAsyncIterator()
            var home = model.changes(.home).makeAsyncIterator()
            let view = HomeModel.NodeView(cache: AttributeCache(), state: .online)
            let events = (1...UInt64(HubConstants.recentEventsPerNode + 3)).map { number in
                NodeEvent(
                    endpoint: 1, cluster: ClusterID(rawValue: 0x003B), event: EventID(rawValue: 1), number: number,
                    priority: .info, timestamp: .systemMilliseconds(number * 10), data: nil)
            }
            model.nodeReported(0x11, view: view, changed: [], events: events)
            let heard = Self.changes(await node.next()) ?? []
            #expect(heard.first == .connectivity(0x11, .online))
            #expect(
                heard.dropFirst().map { change -> UInt64? in
                    if case .event(_, let event) = change { event.number } else { nil }
                } == events.map(\.number))
            // The home hears the connectivity only; the model keeps the latest events.
            #expect(Self.changes(await home.next()) == [.connectivity(0x11, .online)])
            #expect(
                model.snapshot.recentEvents[0x11]?.map(\.number)
                    == Array(events.suffix(HubConstants.recentEventsPerNode).map(\.number)))
            try await store.deleteNode(0x11)
            #expect(model.snapshot.recentEvents[0x11] == nil)
        }
    }
}
