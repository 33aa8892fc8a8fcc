import Foundation
import HomeHub
import HomeRecords
import Synchronization
import Testing

@testable import HomeCommandLine

@Suite struct HubCommandsTests {
    static func temporaryState() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("swift-home-cli-\(UUID().uuidString)").path
    }

    @Test func refusesBadCommissioningInputBeforeTouchingTheNetwork() async {
        let state = Self.temporaryState()
        let cases: [([String], String)] = [
            (
                ["commission", "34970112331", "--address", "[::1]:5540", "--state", state],
                "error: check digit mismatch: the code ends in 1, its digits give 2\n"
            ),
            (
                ["commission", "34970112332", "--state", state],
                "error: give --address HOST:PORT, or --interface NAME to discover the device (see 'home commission --help')\n"
            ),
            (
                ["commission", "34970112332", "--address", "fe80::1", "--state", state],
                "error: address 'fe80::1' is not HOST:PORT (e.g. [::1]:5540 or 127.0.0.1:5540)\n"
            ),
            (
                ["commission", "34970112332", "--address", "[::1]:99999", "--state", state],
                "error: address '[::1]:99999' is not HOST:PORT (e.g. [::1]:5540 or 127.0.0.1:5540)\n"
            ),
            (
                ["commission", "34970112332", "--address", "[::1]:5540", "--state", state],
                "error: no PAA trust store: pass --paa-trust-store DIR (or --accept-untrusted-device to skip attestation's verdict)\n"
            ),
            (
                ["commission", "--state", state],
                "error: give a device's CODE, or --from FILE (see 'home commission --help')\n"
            ),
            (
                ["commission", "34970112332", "34970112332", "--address", "[::1]:5540", "--state", state],
                "error: --address is one device's: give each device its own in a --from file (CODE HOST:PORT lines) (see 'home commission --help')\n"
            ),
            (
                ["commission", "34970112332", "34970112332", "--name", "Lamp", "--interface", "lo", "--state", state],
                "error: --name is one device's: several are each named after their product (rename them with home rename) (see 'home commission --help')\n"
            ),
            (["commission", "--from", state + "/absent", "--state", state], "error: cannot read \(state)/absent\n"),
            // Checked by the hub before it sends anything (nothing answers at port 9).
            (
                [
                    "commission", "34970112332", "--address", "[::1]:9", "--accept-untrusted-device", "--room",
                    "A\u{1B}[2J",
                    "--state", state,
                ],
                "error: invalid room name \"A\\u{1B}[2J\": it holds the control character U+001B (line breaks, tabs, escapes and direction overrides are not allowed)\n"
            ),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments)
            #expect(output.exitCode == 2, "\(arguments)")
            #expect(output.standardError == message, "\(arguments)")
            #expect(output.standardOutput == "")
        }
        let missingStore = await HomeCommand.run([
            "commission", "34970112332", "--address", "[::1]:5540", "--paa-trust-store", state + "/none", "--state",
            state,
        ])
        #expect(missingStore.exitCode == 2)
        #expect(missingStore.standardError.hasPrefix("error: PAA trust store \(state)/none: "))
    }

    /// A --from file is read whole before anything is sent: a bad line names its place.
    @Test func aDevicesFileIsCheckedLineByLine() async throws {
        let state = Self.temporaryState()
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let file = state + "/devices.txt"
        for (text, message) in [
            ("# a box of lamps\n34970112332 [::1]:5540\n34970112331 [::1]:5541\n", "line 3: check digit mismatch"),
            ("34970112332 [::1]:5540 extra\n", "line 1: expected CODE [HOST:PORT]"),
            ("34970112332 localhost\n", "line 1: address 'localhost' is not HOST:PORT"),
            // Saved on Windows: a byte order mark, and CRLF line ends.
            ("\u{FEFF}34970112332 [::1]:5540\r\n# lamps\r\n34970112331 [::1]:5541\r\n", "line 3: check digit mismatch"),
        ] {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let output = await HomeCommand.run(["commission", "--from", file, "--state", state])
            #expect(output.exitCode == 2)
            #expect(output.standardError.hasPrefix("error: \(file) \(message)"), "\(output.standardError)")
        }
    }

    @Test func parsesAddresses() throws {
        #expect("\(try HubCommands.parseAddress("[::1]:5540"))" == "[::1]:5540")
        #expect("\(try HubCommands.parseAddress("[fe80::1:2]:11097"))" == "[fe80::1:2]:11097")
        #expect("\(try HubCommands.parseAddress("192.168.1.20:5540"))" == "192.168.1.20:5540")
        for bad in ["", "::1", "[::1]", "[::1]5540", "300.1.1.1:5540", "host:5540", "[::1]:-1"] {
            #expect(throws: CommandLineError.self, "\(bad)") { try HubCommands.parseAddress(bad) }
        }
    }

    @Test func aNewHubHasNoDevices() async {
        let state = Self.temporaryState()
        let text = await HomeCommand.run(["devices", "--state", state])
        #expect(text == .success("No devices yet. Add one with 'home commission CODE'.\n"))
        #expect(await HomeCommand.run(["devices", "--json", "--state", state]) == .success("[]\n"))
        // The first use created the hub's fabric, owner-only.
        let mode = try? FileManager.default.attributesOfItem(atPath: state)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    /// A node a crash left half-added is not a device yet, but `home devices` says it is there and what happens to it.
    @Test func devicesMentionsAnInterruptedNode() async throws {
        let state = Self.temporaryState()
        _ = await HomeCommand.run(["devices", "--state", state])
        let hub = try await Hub(statePath: state)
        _ = try await hub.store.beginCommissioning(
            nodeID: 0x1234, vendorID: 0xFFF1, productID: 0x8000, attestation: .init(verdict: "trusted", trusted: true))
        try await hub.store.markFailed(0x1234)
        let lines = Mutex<[String]>([])
        let output = await HomeCommand.run(
            ["devices", "--state", state], progress: { line in lines.withLock { $0.append(line) } })
        #expect(output == .success("No devices yet. Add one with 'home commission CODE'.\n"))
        #expect(
            lines.withLock { $0 } == [
                "note: node 0000000000001234 (vendor 0xFFF1, product 0x8000) was interrupted while being added; it is "
                    + "finished when it answers (the hub's next start or 'home commission' tries it), or removed with "
                    + "'home remove 0000000000001234'"
            ])
        // Given up on: it has no address, so it cannot be asked to leave the fabric, and is forgotten all the same.
        let removed = await HomeCommand.run(["remove", "0000000000001234", "--state", state])
        #expect(removed.exitCode == 0, "\(removed)")
        #expect(removed.standardOutput.hasPrefix("removed node 0000000000001234, whose adding had been interrupted\n"))
        #expect(removed.standardOutput.contains("note: the device did not leave the hub's fabric ("))
        #expect(try await hub.store.nodes().isEmpty)
        lines.withLock { $0 = [] }
        _ = await HomeCommand.run(
            ["devices", "--state", state], progress: { line in lines.withLock { $0.append(line) } })
        #expect(lines.withLock { $0 }.isEmpty)
    }

    @Test func pingNamesAnUnknownDevice() async {
        let output = await HomeCommand.run(["ping", "Kitchen lamp", "--state", Self.temporaryState()])
        #expect(output.exitCode == 2)
        #expect(output.standardError == "error: no device \"Kitchen lamp\" (see 'home devices')\n")
    }

    @Test func anUnusableStateDirectoryIsAClearError() async {
        let output = await HomeCommand.run(["devices", "--state", "/proc/swift-home"])
        #expect(output.exitCode == 2)
        #expect(output.standardError.hasPrefix("error: cannot open the hub's state: "))
    }
}
