import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterPlatform
import Synchronization
import Testing

@testable import HomeCommandLine

/// `home serve` as a user runs it: a process of its own, stopped by a signal.
@Suite(.timeLimit(.minutes(1))) struct ServeCommandTests {
    /// The `home` tool `swift build` made.
    static func homeTool() throws -> URL {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/home").path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run swift build first")
        return URL(fileURLWithPath: path)
    }

    /// What a process writes on standard error, collected as it comes: read on a thread of its own until the pipe's
    /// end. Not `FileHandle.readabilityHandler`: its Dispatch source could still watch the descriptor when the handle
    /// closed it, and Dispatch then crashed a test run in its event loop once the number was reused.
    final class Lines: Sendable {
        private let text = Mutex("")

        init(_ handle: FileHandle) {
            let descriptor = handle.fileDescriptor
            Thread.detachNewThread { [self] in
                // The handle (and so the descriptor) lives as long as this thread reads it.
                withExtendedLifetime(handle) {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { return }
                        text.withLock { $0 += String(decoding: buffer[..<count], as: UTF8.self) }
                    }
                }
            }
        }

        var all: String { text.withLock { $0 } }

        /// Until `fragment` was written `count` times (or 30 s passed, a ceiling for a loaded machine).
        func wait(count: Int, of fragment: String) async -> Bool {
            for _ in 0..<3_000 {
                if all.components(separatedBy: fragment).count - 1 >= count { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return all.components(separatedBy: fragment).count - 1 >= count
        }

        /// Until `fragment` was written (or 20 s passed, a ceiling for a loaded machine).
        func wait(for fragment: String) async -> Bool {
            for _ in 0..<2_000 {
                if all.contains(fragment) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return all.contains(fragment)
        }
    }

    static func start(_ arguments: [String]) throws -> (ChildProcess, Lines) {
        let process = try ChildProcess(executable: try homeTool().path, arguments: arguments, standardError: .pipe)
        return (process, Lines(try #require(process.errorOutput)))
    }

    @Test func servesUntilSIGTERMSaysEachNodeStateAndRefusesASecondHub() async throws {
        let state = try await HomeFixture.hubWithLamps()
        let (hub, lines) = try Self.start(["serve", "--state", state])
        #expect(await lines.wait(for: "serving \(state) (PID \(hub.pid)): 1 node(s)"))
        // The fixture's node has no known address and no interface is given: offline at once, saying why.
        #expect(
            await lines.wait(
                for: "node 391D788B9528D5FA (Desk lamp 1, Desk lamp 2)  offline (no address is known for it and no "
                    + "network interface is configured to look it up)"))

        let (second, secondLines) = try Self.start(["serve", "--state", state])
        #expect(await second.termination() == .exited(1))
        #expect(await secondLines.wait(for: "error: a hub already serves \(state) (PID \(hub.pid))"))

        hub.send(SIGTERM)
        #expect(await hub.termination() == .exited(0))
        #expect(await lines.wait(for: "SIGTERM: closing every subscription and session"))
        #expect(await lines.wait(for: "stopped"))

        // The lock went with it: the home can be served again.
        let (again, againLines) = try Self.start(["serve", "--state", state])
        #expect(await againLines.wait(for: "serving \(state)"))
        again.send(SIGINT)
        #expect(await again.termination() == .exited(0))
        #expect(await againLines.wait(for: "SIGINT: closing"))
    }

    @Test(
        "killed with SIGKILL and started again (no --interface), the hub has every node online again from its last known address"
    )
    func everyNodeComesBackAfterSIGKILL() async throws {
        var template = Array((NSTemporaryDirectory() + "/swift-home-serve-tests-XXXXXX").utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/hub"
        var devices: [VirtualDevice] = []
        do {
            let hub = try await Hub(statePath: state)
            for index in 0..<10 {
                let store = DeviceStore(directory: directory + "/device-\(index)")
                let settings = try store.loadOrCreate(
                    DeviceSettings(kind: .light, passcode: 20202021, discriminator: UInt16(3840 + index)))
                let device = try VirtualDevice(store: store, state: settings, port: 0, log: { _ in })
                try await device.start()
                devices.append(device)
                _ = try await hub.commission(
                    CommissioningRequest(
                        payload: device.setupPayload, address: .ipv4(IPv4Address(127 << 24 | 1), port: device.port),
                        trustStore: PAATrustStore(certificates: [
                            try X509Certificate(derEncoded: device.attestation.paa)
                        ])),
                    name: "lamp \(index)", room: nil, progress: { _ in })
            }
        }
        let (first, firstLines) = try Self.start(["serve", "--state", state])
        #expect(await firstLines.wait(count: 10, of: ")  online\n"))
        first.send(SIGKILL)
        #expect(await first.termination() == .signalled(SIGKILL))

        // Its lock went with it (the kernel's), its socket file stayed: the next hub replaces it.
        let (second, secondLines) = try Self.start(["serve", "--state", state])
        #expect(await secondLines.wait(for: "serving \(state) (PID \(second.pid)): 10 node(s)"))
        #expect(await secondLines.wait(count: 10, of: ")  online\n"), "\(secondLines.all)")
        second.send(SIGTERM)
        #expect(await second.termination() == .exited(0))
        for device in devices { await device.shutdown() }
    }

    @Test(
        "at --log-level debug the hub says who connects and what they ask; home status asks it; a bad level is refused")
    func debugLogsClientsAndStatusAsksTheHub() async throws {
        let state = try await HomeFixture.hubWithLamps()
        let bad = await HomeCommand.run(["serve", "--log-level", "loud", "--state", state])
        #expect(bad.exitCode == 2)
        #expect(bad.standardError == "error: log level 'loud' is not one of error, info, debug\n")
        let none = await HomeCommand.run(["status", "--state", state])
        #expect(none.exitCode == 1)
        #expect(none.standardError == "error: no hub serves \(state) (start one with 'home serve')\n")

        // A node a crash left half-added (with no address, so the hub cannot finish it) is counted apart.
        let store = try await HubStore(directory: try StateDirectory(explicitPath: state))
        try await store.beginCommissioning(
            nodeID: 0x1234, vendorID: 0xFFF1, productID: 0x8000, attestation: .init(verdict: "trusted", trusted: true))
        try await store.markFailed(0x1234)

        let (hub, lines) = try Self.start(["serve", "--log-level", "debug", "--state", state])
        #expect(await lines.wait(for: "clients connect at \(state)/hub.socket"))
        let status = await HomeCommand.run(["status", "--state", state])
        #expect(status.exitCode == 0)
        #expect(status.standardOutput.hasPrefix("hub PID \(hub.pid) serving \(state), up "))
        #expect(
            status.standardOutput.hasSuffix(
                ": 0 node(s) online, 1 offline, 0 not yet reached, 1 interrupted while being added (see 'home devices'); "
                    + "1 client(s) connected (this one included)\n"))
        let json = await HomeCommand.run(["status", "--json", "--state", state])
        #expect(json.standardOutput.contains("\"nodesOffline\":1,\"nodesUnknown\":0,\"nodesInterrupted\":1,"))
        #expect(await lines.wait(for: "client PID \(getpid()) (user \(getuid())) connected"))
        #expect(await lines.wait(for: "client PID \(getpid()) (user \(getuid())): read the hub's status"))
        #expect(await lines.wait(for: "client PID \(getpid()) (user \(getuid())) disconnected"))
        hub.send(SIGTERM)
        #expect(await hub.termination() == .exited(0))
    }

    @Test(
        "a user who may not use the hub's socket gets one clear line and exit 1",
        .enabled(if: getuid() == 0, "switching to another user needs root"))
    func aUserWithoutTheSocketIsToldPermissionDenied() async throws {
        let state = try await HomeFixture.hubWithLamps()
        let (hub, lines) = try Self.start(["serve", "--state", state])
        #expect(await lines.wait(for: "clients connect at \(state)/hub.socket"))
        let other = try ChildProcess(
            executable: "/usr/bin/setpriv",
            arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", try Self.homeTool().path, "status", "--state",
                state,
            ], standardError: .pipe)
        let said = Lines(try #require(other.errorOutput))
        #expect(await other.termination() == .exited(1))
        #expect(await said.wait(for: "\n"))
        #expect(said.all == "error: permission denied: cannot connect to the hub's socket \(state)/hub.socket\n")
        hub.send(SIGTERM)
        #expect(await hub.termination() == .exited(0))
    }
}
