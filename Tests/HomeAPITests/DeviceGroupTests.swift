import Foundation
import HomeHub
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// Named groups through the Home API: created, listed live (in this process and in another that mirrors the hub),
/// changed and deleted, with the API's rules for names.
@Suite struct DeviceGroupTests {
    @Test func aGroupIsCreatedChangedAndDeletedAndEveryHomeSeesIt() async throws {
        try await withHome { home, store, path in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            try await addNode(store, 0x12, endpoints: [(1, 0x0100)], named: "Spot")
            let second = try await Home.connect(stateDirectory: path)
            let groups = Recorder { record in for try await value in second.groups().batched() { record(value) } }
            #expect(await groups.values(count: 1).first == [])

            let devices = try await home.devices().list().sorted { $0.name < $1.name }
            let corner = try await home.createGroup(name: "Corner", devices: [devices[0]])
            #expect(corner.deviceIDs == [devices[0].id])
            await groups.until { $0.last?.first?.deviceIDs == [devices[0].id] }
            #expect(groups.values.last?.map(\.name) == ["Corner"])

            let both = try await corner.add([devices[1]])
            #expect(both.deviceIDs == devices.map(\.id))
            await groups.until { $0.last?.first?.deviceIDs.count == 2 }
            let one = try await both.remove([devices[0]])
            #expect(one.deviceIDs == [devices[1].id])
            #expect(try await home.groups().list().first?.deviceIDs == [devices[1].id])

            await #expect(throws: HomeError.self) { try await home.createGroup(name: "corner", devices: []) }
            await #expect(throws: HomeError.self) { try await home.createGroup(name: "   ", devices: []) }
            let long = try await home.createGroup(name: String(repeating: "g", count: 70), devices: [])
            #expect(long.name.count == 60)
            await groups.until { $0.last?.count == 2 }

            try await home.deleteGroup(one)
            await groups.until { $0.last?.map(\.id) == [long.id] }
            #expect(groups.values.last?.map(\.id) == [long.id])
            groups.cancel()
            await second.disconnect()
        }
    }
}
