import Foundation
import Testing

@testable import HomeCommandLine

/// `home network`: credentials from a file, checked, kept, shown without their secrets.
@Suite struct NetworkCommandsTests {
    @Test func wifiAndThreadAreSetFromFilesAndShownWithoutTheirSecrets() async throws {
        let state = HubCommandsTests.temporaryState()
        let directory = (state as NSString).deletingLastPathComponent
        let password = directory + "/wifi-password"
        try "correct horse battery\n".write(toFile: password, atomically: true, encoding: .utf8)
        let dataset = directory + "/dataset"
        try "0208 1111111122222222\n".write(toFile: dataset, atomically: true, encoding: .utf8)

        let empty = await HomeCommand.run(["network", "--state", state])
        #expect(empty.standardOutput.contains("Wi-Fi:   not set"))
        let wifi = await HomeCommand.run([
            "network", "wifi", "Home WiFi", "--password-file", password, "--state", state,
        ])
        #expect(wifi == .success("new devices join the Wi-Fi network Home WiFi\n"))
        let thread = await HomeCommand.run(["network", "thread", "--dataset-file", dataset, "--state", state])
        #expect(thread == .success("new devices join the Thread network 1111111122222222\n"))
        let shown = await HomeCommand.run(["network", "--state", state])
        #expect(
            shown.standardOutput == "Wi-Fi:   \"Home WiFi\"\nThread:  Extended PAN ID 1111111122222222\n")
        #expect(!shown.standardOutput.contains("horse"))
    }

    @Test func badCredentialsAreRefusedAndKeepWhatWasThere() async throws {
        let state = HubCommandsTests.temporaryState()
        let directory = (state as NSString).deletingLastPathComponent
        let short = directory + "/short"
        try "abc".write(toFile: short, atomically: true, encoding: .utf8)
        let notHex = directory + "/not-hex"
        try "02zz".write(toFile: notHex, atomically: true, encoding: .utf8)
        let noPANID = directory + "/no-pan-id"
        try "0102beef".write(toFile: noPANID, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (
                ["network", "wifi", "Home", "--password-file", short],
                "error: a Wi-Fi passphrase is 8 to 63 characters (or a 64-digit hex PSK, or none for an open network); this one has 3\n"
            ),
            (
                ["network", "wifi", String(repeating: "s", count: 33), "--password-file", short],
                "error: a Wi-Fi SSID is 1 to 32 bytes, \"\(String(repeating: "s", count: 33))\" is 33\n"
            ),
            (
                ["network", "wifi", "Home", "--password-file", directory + "/missing"],
                "error: cannot read the password file \(directory)/missing\n"
            ),
            (
                ["network", "thread", "--dataset-file", notHex],
                "error: the dataset file does not hold hexadecimal (two digits a byte)\n"
            ),
            (
                ["network", "thread", "--dataset-file", noPANID],
                "error: the Thread operational dataset has no Extended PAN ID\n"
            ),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments + ["--state", state])
            #expect(output.exitCode == 2, "\(arguments)")
            #expect(output.standardError == message, "\(arguments)")
        }
        let shown = await HomeCommand.run(["network", "--state", state])
        #expect(shown.standardOutput.contains("Wi-Fi:   not set") && shown.standardOutput.contains("Thread:  not set"))
    }

    @Test func credentialsAreKeptUnderAnIDListedAndRemoved() async throws {
        let state = HubCommandsTests.temporaryState()
        // Beside the state, named for it: the folder is shared with the other tests, which run at the same time.
        let password = state + "-guest-password"
        try "battery staple\n".write(toFile: password, atomically: true, encoding: .utf8)
        let dataset = state + "-named-dataset"
        try "0208 1111111122222222 0304 4D657368\n".write(toFile: dataset, atomically: true, encoding: .utf8)
        let guest = await HomeCommand.run([
            "network", "wifi", "Guest net", "--password-file", password, "--id", "Guest", "--state", state,
        ])
        #expect(guest == .success("kept the Wi-Fi network Guest net under \"Guest\"\n"))
        _ = await HomeCommand.run(["network", "thread", "--dataset-file", dataset, "--state", state])
        let shown = await HomeCommand.run(["network", "--state", state])
        #expect(
            shown.standardOutput == """
                Wi-Fi:   not set (home network wifi SSID --password-file FILE)
                Thread:  Extended PAN ID 1111111122222222 (Mesh)
                Wi-Fi "Guest":  "Guest net"

                """)
        #expect(
            await HomeCommand.run(["network", "remove", "wifi", "--id", "Guest", "--state", state])
                == .success("removed the Wi-Fi network stored under \"Guest\"\n"))
        let again = await HomeCommand.run(["network", "remove", "wifi", "--id", "Guest", "--state", state])
        #expect(again.exitCode == 2 && again.standardError == "error: no wifi credentials are stored under \"Guest\"\n")
        let kind = await HomeCommand.run(["network", "remove", "ethernet", "--state", state])
        #expect(kind.standardError == "error: 'ethernet' is neither wifi nor thread\n")
        let noBLE = await HomeCommand.run([
            "commission", "MT:Y.K9042C00KA0648G00", "--wifi-id", "Guest", "--state", state,
        ])
        #expect(
            noBLE.exitCode == 2
                && noBLE.standardError.contains("--wifi-id is for a device given a network over Bluetooth LE"))
    }
}
