import Foundation
import MatterDevice
import Testing

struct DeviceStoreTests {
    @Test func theFirstStartFixesTheFactoryDataInAnOwnerOnlyFile() async throws {
        try await withTemporaryDirectory { directory in
            let store = DeviceStore(directory: directory + "/light")
            let created = try store.loadOrCreate(
                DeviceSettings(passcode: 20202021, discriminator: 3840, iterations: 2000))
            var status = stat()
            #expect(stat(store.path, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
            #expect(created.passcode == 20202021 && created.discriminator == 3840 && created.iterations == 2000)
            #expect(created.salt.count == 32 && created.verifier.count == 97)
            // Loading again gives the same device; repeating a setting is fine, contradicting one is refused.
            #expect(try store.loadOrCreate(DeviceSettings(passcode: 20202021)) == created)
            #expect(
                throws: DeviceError.state(
                    path: store.path, reason: "the stored device has --discriminator 3840, not 100")
            ) {
                try store.loadOrCreate(DeviceSettings(discriminator: 100))
            }
            try store.factoryReset()
            #expect(try store.load() == nil)
            #expect(try store.loadOrCreate(DeviceSettings()).dac != created.dac)
        }
    }

    /// A bridge's changes are kept; a file written before bridges could change (no "bridge" key) still loads.
    /// The first start fixes the software version; an update moves it on, and the same option again still starts the
    /// device, while asking for a later version than it runs is refused.
    @Test func theSoftwareVersionIsTheFirstStartsUntilAnUpdate() async throws {
        try await withTemporaryDirectory { directory in
            let store = DeviceStore(directory: directory + "/light")
            var state = try store.loadOrCreate(DeviceSettings(softwareVersion: 3))
            #expect(state.identity.softwareVersion == 3 && state.identity.softwareVersionString == "3.0")
            state.identity.softwareVersion = 4
            try await store.save(state)
            #expect(try store.loadOrCreate(DeviceSettings(softwareVersion: 3)).identity.softwareVersion == 4)
            #expect(
                throws: DeviceError.state(
                    path: store.path,
                    reason: "the stored device runs software version 4, older than --software-version 5")
            ) { try store.loadOrCreate(DeviceSettings(softwareVersion: 5)) }
        }
    }

    @Test func aBridgesChangesAreStoredAndOlderFilesWithoutThemStillLoad() async throws {
        try await withTemporaryDirectory { directory in
            let store = DeviceStore(directory: directory)
            var state = try store.loadOrCreate(DeviceSettings(kind: .bridge, passcode: 20202021, iterations: 1000))
            #expect(state.bridge == nil)
            state.bridge = BridgeChanges(added: [BridgedDevice(endpoint: 5, label: "Shed light")], retired: [4])
            try await store.save(state)
            #expect(try store.load() == state)

            let written = try #require(FileManager.default.contents(atPath: store.path))
            var object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
            #expect(object["bridge"] != nil)
            object["bridge"] = nil
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: store.path))
            var older = state
            older.bridge = nil
            #expect(try store.load() == older)
        }
    }

    @Test func settingsOutOfRangeAreRefusedBeforeAnythingIsWritten() async throws {
        try await withTemporaryDirectory { directory in
            let store = DeviceStore(directory: directory)
            #expect(throws: DeviceError.invalidSetting("--discriminator must be 0 to 4095, got 4096")) {
                try store.loadOrCreate(DeviceSettings(discriminator: 4096))
            }
            #expect(throws: DeviceError.invalidSetting("--iterations must be 1000 to 100000, got 999")) {
                try store.loadOrCreate(DeviceSettings(iterations: 999))
            }
            #expect(throws: DeviceError.self) { try store.loadOrCreate(DeviceSettings(passcode: 11111111)) }
            let nothing = try store.load()
            #expect(nothing == nil)
        }
    }

    @Test func aCorruptStateFileIsReportedWithWhatToDo() async throws {
        try await withTemporaryDirectory { directory in
            let store = DeviceStore(directory: directory)
            #expect(FileManager.default.createFile(atPath: store.path, contents: Data("{".utf8)))
            #expect {
                try store.load()
            } throws: { error in
                "\(error)".hasPrefix("device state \(store.path): not a device state file")
                    && "\(error)".hasSuffix("(use --factory-reset to start over)")
            }
        }
    }
}
