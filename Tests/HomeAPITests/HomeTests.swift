import HomeHub
import HomeRecords
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct HomeTests {
    @Test func aSecondHomeOnTheSameDirectorySeesTheFirstOnesChanges() async throws {
        try await withHome { first, store, path in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            // Its own connection, as another process sharing the app group would have.
            let second = try await Home.connect(stateDirectory: path)
            let devices = Recorder { record in for try await value in second.devices().batched() { record(value) } }
            let rooms = Recorder { record in for try await value in second.rooms().stream() { record(value) } }
            #expect(await devices.values(count: 1).first?.map(\.name) == ["Lamp"])

            let lamp = try #require(try await first.devices().list().first)
            _ = try await lamp.setName("Hall lamp")
            let renamed = await devices.values(count: 2)
            #expect(renamed.last?.map(\.name) == ["Hall lamp"])

            let hall = try await first.createRoom(name: "Hall")
            #expect(await rooms.values(count: 1).map(\.id) == [hall.id])
            devices.cancel()
            rooms.cancel()
        }
    }

    @Test func changesSurviveReconnecting() async throws {
        try await withHome { home, store, path in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let den = try await home.createRoom(name: "Den")
            _ = try await home.move(device: try await lamp.setName("Den lamp"), to: den)
            let reopened = try await Home.connect(stateDirectory: path)
            let device = try #require(try await reopened.devices().list().first)
            #expect(device.name == "Den lamp" && device.roomID == den.id)
            #expect(try await reopened.rooms().list().map(\.name) == ["Den"])
        }
    }
}
