import Foundation
import Synchronization
import Testing

/// `home serve` as a user runs it: a process of its own, stopped by a signal.
@Suite(.timeLimit(.minutes(1))) struct ServeCommandTests {
    /// The `home` tool `swift build` made.
    static func homeTool() throws -> URL {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/home").path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run swift build first")
        return URL(fileURLWithPath: path)
    }

    /// What a process writes on standard error, collected as it comes.
    final class Lines: Sendable {
        private let text = Mutex("")

        init(_ pipe: Pipe) {
            pipe.fileHandleForReading.readabilityHandler = { [self] handle in
                let data = handle.availableData
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }

        var all: String { text.withLock { $0 } }

        /// Until `fragment` was written (or 20 s passed, a ceiling for a loaded machine).
        func wait(for fragment: String) async -> Bool {
            for _ in 0..<2_000 {
                if all.contains(fragment) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return all.contains(fragment)
        }
    }

    static func start(_ arguments: [String]) throws -> (Process, Lines) {
        let process = Process()
        process.executableURL = try homeTool()
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let lines = Lines(errors)
        try process.run()
        return (process, lines)
    }

    static func exit(_ process: Process) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    @Test func servesUntilSIGTERMSaysEachNodeStateAndRefusesASecondHub() async throws {
        let state = try HomeFixture.hubWithLamps()
        let (hub, lines) = try Self.start(["serve", "--state", state])
        #expect(await lines.wait(for: "serving \(state) (PID \(hub.processIdentifier)): 1 node(s)"))
        // The fixture's node has no known address and no interface is given: offline at once, saying why.
        #expect(
            await lines.wait(
                for: "node 391D788B9528D5FA (Desk lamp 1, Desk lamp 2)  offline (no address is known for it and no "
                    + "network interface is configured to look it up)"))

        let (second, secondLines) = try Self.start(["serve", "--state", state])
        #expect(await Self.exit(second) == 1)
        #expect(await secondLines.wait(for: "error: a hub already serves \(state) (PID \(hub.processIdentifier))"))

        hub.terminate()
        #expect(await Self.exit(hub) == 0)
        #expect(await lines.wait(for: "SIGTERM: closing every subscription and session"))
        #expect(await lines.wait(for: "stopped"))

        // The lock went with it: the home can be served again.
        let (again, againLines) = try Self.start(["serve", "--state", state])
        #expect(await againLines.wait(for: "serving \(state)"))
        again.interrupt()
        #expect(await Self.exit(again) == 0)
        #expect(await againLines.wait(for: "SIGINT: closing"))
    }
}
