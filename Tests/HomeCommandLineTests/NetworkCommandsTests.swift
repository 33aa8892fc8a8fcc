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
}
