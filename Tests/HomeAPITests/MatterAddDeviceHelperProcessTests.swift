import Foundation
import HomeHub
import HomeRecords
import MatterPlatform
import MatterTestSupport
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// The built executables (`swift build` puts them beside the test bundle).
func builtExecutable(_ name: String) throws -> String {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent(".build/debug").path
    let path = directory + "/" + name
    try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run swift build first")
    return path
}

@Suite struct MatterAddDeviceHelperProcessTests {
    @Test(
        "a helper's `code: message` line comes back as that HomeError; any other line as unknown, with how it ended")
    func helperErrors() {
        #expect(
            MatterAddDeviceHelperProcess.error(
                fromHelperLine: "failedPrecondition: no commissioning session is open", termination: .exited(1),
                call: "rooms")
                == HomeError(.failedPrecondition, "no commissioning session is open"))
        #expect(
            MatterAddDeviceHelperProcess.error(
                fromHelperLine: "out of memory", termination: .exited(3), call: "rooms")
                == HomeError(.unknown, "the helper's rooms call exited with status 3: out of memory"))
        #expect(
            MatterAddDeviceHelperProcess.error(fromHelperLine: "", termination: .signalled(SIGSEGV), call: "rooms")
                == HomeError(.unknown, "the helper's rooms call killed by signal 11"))
    }

    @Test(
        "across processes: the example helper refuses every call while no session is open, then lists the rooms of an open one"
    )
    func exampleHelper() async throws {
        try await withTemporaryDirectory { directory in
            let helper = try builtExecutable("ExampleAddDeviceHelper")
            // The helper finds the app group container through XDG_DATA_HOME, given to it alone.
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = directory
            let home = try await Home.open(
                statePath: directory + "/swift-home/app-groups/group.example.tests",
                configuration: Home.Configuration(sharedAppGroup: "group.example.tests"))
            let structure = try #require(try await home.structures().list().first)
            _ = try await home.createRoom(name: "Kitchen", in: structure)
            let handler = MatterAddDeviceHelperProcess(
                executable: helper, appGroup: "group.example.tests", environment: environment)
            let place = MatterAddDeviceRequest.Home(displayName: structure.name)
            let closed = await #expect(throws: HomeError.self) { try await handler.rooms(in: place) }
            #expect(closed?.code == .failedPrecondition)
            #expect(closed?.message.contains("no commissioning session is open") == true)
            try await structure.prepareForMatterCommissioning()
            #expect(try await handler.rooms(in: place) == [.init(displayName: "Kitchen")])
            let bad = await #expect(throws: HomeError.self) {
                try await handler.commissionDevice(in: place, onboardingPayload: "garbage", commissioningID: UUID())
            }
            #expect(bad?.code == .invalidArgument)
            structure.cancelMatterCommissioning()
            await structure.context.settled()
        }
    }

    @Test("across processes: `home add` in another process is refused while this process's session is open")
    func otherProcessPrepare() async throws {
        try await withTemporaryDirectory { directory in
            let homeTool = try builtExecutable("home")
            let home = try await Home.connect(stateDirectory: directory)
            let structure = try #require(try await home.structures().list().first)
            try await structure.prepareForMatterCommissioning()
            let child = try ChildProcess(
                executable: homeTool,
                arguments: ["add", "MT:Y.K9042C00KA0648G00", "--room", "Hall", "--name", "Lamp", "--state", directory],
                standardError: .pipe)
            let message = String(decoding: await ChildProcess.readToEnd(try #require(child.errorOutput)), as: UTF8.self)
            #expect(await child.termination() == .exited(1))
            #expect(
                message.contains(
                    "failedPrecondition: another commissioning session is in progress (opened by process \(getpid()))"))
            #expect(try await home.context.store.commissioningSession()?.owner == ProcessIdentity.current())
        }
    }
}
