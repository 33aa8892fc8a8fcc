import HomeHub
import HomeRecords
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct QueryTests {
    @Test func listIsTheFirstValueOfBatched() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            try await addNode(store, 0x22, endpoints: [(1, 0x0015)], named: "Door")
            let listed = try await home.devices().list()
            var batches = home.devices().batched().makeAsyncIterator()
            let first = try await batches.next(isolation: nil)
            #expect(listed == first)
            #expect(Set(listed.map(\.name)) == ["Lamp", "Door"])
            #expect(Set(listed.map(\.id)) == ["0000000000000011-1", "0000000000000022-1"])
        }
    }

    @Test func batchedEmitsTheWholeSetOnRenameMoveAndRoomCreation() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            try await addNode(store, 0x22, endpoints: [(1, 0x0015)], named: "Door")
            let devices = Recorder { record in for try await value in home.devices().batched() { record(value) } }
            let rooms = Recorder { record in for try await value in home.rooms().batched() { record(value) } }
            #expect(await devices.values(count: 1).count == 1)
            #expect(await rooms.values(count: 1) == [[]])

            let lamp = try #require(try await home.devices().list().first { $0.name == "Lamp" })
            _ = try await lamp.setName("Desk lamp")
            let afterRename = await devices.values(count: 2)
            #expect(afterRename.count == 2)
            #expect(Set(afterRename.last?.map(\.name) ?? []) == ["Desk lamp", "Door"])

            let kitchen = try await home.createRoom(name: "Kitchen")
            #expect(await rooms.values(count: 2).last == [kitchen])

            _ = try await home.move(device: lamp, to: kitchen)
            let afterMove = await devices.values(count: 3)
            #expect(afterMove.count == 3)
            #expect(afterMove.last?.first { $0.id == lamp.id }?.roomID == kitchen.id)
            // Each emission is the whole set, not only what changed.
            #expect(afterMove.allSatisfy { $0.count == 2 })
            devices.cancel()
            rooms.cancel()
        }
    }

    @Test func batchedDoesNotRepeatAnUnchangedSet() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let devices = Recorder { record in for try await value in home.devices().batched() { record(value) } }
            #expect(await devices.values(count: 1).count == 1)
            // Both bump the change counter without changing any device.
            _ = try await home.createRoom(name: "Hall")
            try await store.updateIdentity(of: 0x11, vendorName: "Acme", productName: "Lamp 2000", serialNumber: "S1")
            try await Task.sleep(for: quietPeriod)
            #expect(devices.values.count == 1)
            devices.cancel()
        }
    }

    @Test func streamEmitsEveryElementFirstThenOnlyWhatChangedOrAppeared() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            try await addNode(store, 0x22, endpoints: [(1, 0x0015)], named: "Door")
            try await addNode(store, 0x33, endpoints: [(1, 0x0101)], named: "Spot")
            let stream = Recorder { record in for try await value in home.devices().stream() { record(value) } }
            let initial = await stream.values(count: 3)
            #expect(Set(initial.map(\.name)) == ["Lamp", "Door", "Spot"])

            let door = try #require(initial.first { $0.name == "Door" })
            _ = try await door.setName("Front door")
            let afterRename = await stream.values(count: 4)
            #expect(afterRename.count == 4)
            #expect(afterRename.last?.id == door.id)
            #expect(afterRename.last?.name == "Front door")

            // A device another connection adds appears; one it removes is not emitted.
            try await addNode(store, 0x44, endpoints: [(1, 0x0100)], named: "Porch")
            let afterAdd = await stream.values(count: 5)
            #expect(afterAdd.last?.name == "Porch")
            try await store.deleteNode(0x33)
            try await Task.sleep(for: quietPeriod)
            #expect(stream.values.count == 5)
            stream.cancel()
        }
    }

    @Test func twoConsumersEachSeeEveryChange() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let first = Recorder { record in for try await value in home.devices().batched() { record(value) } }
            let second = Recorder { record in for try await value in home.devices().batched() { record(value) } }
            #expect(await first.values(count: 1).count == 1)
            #expect(await second.values(count: 1).count == 1)
            let lamp = try #require(try await home.devices().list().first)
            _ = try await lamp.setName("Reading lamp")
            for recorder in [first, second] {
                let values = await recorder.values(count: 2)
                #expect(values.map { $0.first?.name } == ["Lamp", "Reading lamp"])
            }
            first.cancel()
            second.cancel()
        }
    }

    @Test func cancellingTheConsumerEndsTheSequenceAndReleasesItsListener() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let batches = Recorder { record in for try await value in home.devices().batched() { record(value) } }
            let stream = Recorder { record in for try await value in home.rooms().stream() { record(value) } }
            _ = await batches.values(count: 1)
            _ = try await home.createRoom(name: "Den")
            _ = await stream.values(count: 1)
            #expect(home.context.model.listenerCount == 2)
            batches.cancel()
            stream.cancel()
            await batches.waitUntilFinished()
            await stream.waitUntilFinished()
            #expect(batches.finished && stream.finished)
            #expect(batches.error == nil && stream.error == nil)
            #expect(home.context.model.listenerCount == 0)
        }
    }

    @Test func anIteratorLetGoOfReleasesItsListener() async throws {
        try await withHome { home, _, _ in
            do {
                var batches = home.structures().batched().makeAsyncIterator()
                _ = try await batches.next(isolation: nil)
                #expect(home.context.model.listenerCount == 1)
            }
            #expect(home.context.model.listenerCount == 0)
            _ = try await home.structures().list()
            #expect(home.context.model.listenerCount == 0)
        }
    }

    @Test func listOnACancelledTaskThrowsCancelled() async throws {
        try await withHome { home, _, _ in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await home.rooms().list()
            }
            await #expect(throws: HomeError(.cancelled, "the query's task was cancelled")) { try await task.value }
        }
    }
}
