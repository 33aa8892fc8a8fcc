import Foundation
import HomeRecords
import MatterPlatform
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HomeHub
@testable import HubWire

@Suite struct HomeErrorHubTests {
    @Test func everyCodeOfTheAPIExists() {
        #expect(
            HomeError.Code.allCases.map(\.rawValue) == [
                "cancelled", "unknown", "invalidArgument", "deadlineExceeded", "notFound", "alreadyExists",
                "permissionDenied",
                "resourceExhausted", "failedPrecondition", "aborted", "outOfRange", "unimplemented", "internal",
                "unavailable",
                "dataLoss", "unauthenticated",
            ])
        #expect("\(HomeError(.notFound, "no room R"))" == "notFound: no room R")
    }

    @Test(arguments: [
        (HubStoreError.database(.busy(sql: "SELECT 1")), HomeError.Code.unavailable),
        (.database(.statement(sql: "SELECT", message: "syntax")), .internal),
        (.newerSchema(found: 9, supported: 3), .failedPrecondition),
        (.roomExists("Hall"), .alreadyExists),
        (.unknownRoom("R"), .notFound),
        (.unknownDevice(DeviceID(nodeID: 1, endpoint: 1)), .notFound),
        (.corrupt(table: "rooms", column: "name", reason: "expected text"), .dataLoss),
        (.invalidName(" "), .invalidArgument),
    ])
    func storeErrorsMapByKindAndKeepTheirMessage(_ error: HubStoreError, _ code: HomeError.Code) {
        #expect(HomeError(error) == HomeError(code, error.description))
    }

    @Test func aDamagedStoreIsDataLoss() async throws {
        try await withHome { home, store, path in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            #expect(try await home.devices().list().count == 1)
            // A client of this home's hub, following its devices.
            let client = try await Home.connect(stateDirectory: path)
            #expect(client.isAttachedToHub)
            let followed = Recorder { record in
                for try await devices in client.devices().batched() { record(devices.count) }
            }
            #expect(await followed.values(count: 1) == [1])
            // Damaged by a write this build did not make: the model cannot read the node back.
            try store.write(touching: [0x11]) { try $0.query("UPDATE devices SET endpoint = 70000") }
            let damaged = HomeError(.dataLoss, "the database is damaged: devices.endpoint: 70000 does not fit UInt16")
            await #expect(throws: damaged) { try await home.devices().list() }
            // The client says so too: its live query ends with the hub's reason, and so does a new one.
            await followed.waitUntilFinished()
            #expect(followed.error == damaged)
            await #expect(throws: damaged) { try await client.devices().list() }
            // And a hub opened on it afterwards (this process's home is its hub now: another process would be) refuses
            // to start from it.
            await #expect(throws: damaged) {
                try await Home.open(statePath: path, configuration: Home.Configuration(stateDirectory: path))
            }
        }
    }

    @Test func aStoreFromANewerSwiftHomeIsAFailedPrecondition() async throws {
        try await withHome { _, store, path in
            try store.database.execute("UPDATE schema_version SET version = 99")
            await #expect {
                try await Home.open(statePath: path, configuration: Home.Configuration(stateDirectory: path))
            } throws: { error in
                (error as? HomeError)?.code == .failedPrecondition
            }
        }
    }

    @Test func anUnusableStateDirectoryIsNamed() async throws {
        try await withHome { _, _, path in
            let file = path + "/not-a-directory"
            #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            await #expect(
                throws: HomeError(.failedPrecondition, "the state directory \(file) exists but is not a directory")
            ) {
                try await Home.connect(stateDirectory: file)
            }
            await #expect(throws: HomeError(.invalidArgument, "the state directory path is empty")) {
                try await Home.connect(stateDirectory: "")
            }
        }
    }
}
