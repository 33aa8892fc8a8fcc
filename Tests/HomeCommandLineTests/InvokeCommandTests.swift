import Foundation
import HomeHub
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterPlatform
import Testing

@testable import HomeCommandLine

@Suite(.timeLimit(.minutes(1))) struct InvokeCommandTests {
    @Test func badInputExits2NamingWhatTheDataModelHasBeforeTouchingTheNetwork() async {
        let state = HubCommandsTests.temporaryState()
        let cases: [([String], String)] = [
            (
                ["invoke", "Lamp", "OnOff"],
                "error: unknown command 'OnOff': write Cluster.Command, e.g. OnOff.Toggle\n"
            ),
            (
                ["invoke", "Lamp", "Lights.Toggle"],
                "error: unknown cluster 'Lights' in 'Lights.Toggle': write Cluster.Command, e.g. OnOff.Toggle\n"
            ),
            (
                ["invoke", "Lamp", "OnOff.Dance"],
                "error: OnOff has no command Dance (its commands: Off, OffWithEffect, On, OnWithRecallGlobalScene, OnWithTimedOff, Toggle)\n"
            ),
            (
                [
                    "invoke", "Lamp", "LevelControl.MoveToLevel", "level=high", "transitionTime=0", "optionsMask=0",
                    "optionsOverride=0",
                ],
                "error: LevelControl.MoveToLevel: field level is not an unsigned integer\n"
            ),
            (
                ["invoke", "Lamp", "LevelControl.MoveToLevel", "level=3"],
                "error: LevelControl.MoveToLevel: field transitionTime is missing\n"
            ),
            (
                ["invoke", "Lamp", "OnOff.Off", "level=3"],
                "error: OnOff.Off: the command has no field level (it takes none)\n"
            ),
            (["invoke", "Lamp", "OnOff.Off", "level"], "error: 'level' is not FIELD=VALUE\n"),
            (["invoke", "Lamp", "onoff.off"], "error: no device \"Lamp\" (see 'home devices')\n"),
            (
                ["write", "Lamp", "OnOff.Level", "3"],
                "error: unknown attribute 'OnOff.Level': write Cluster.Attribute, e.g. LevelControl.OnLevel\n"
            ),
            (
                ["write", "Lamp", "OnOff.OnOff", "true"],
                "error: OnOff.OnOff is not an attribute a client may write\n"
            ),
            (
                ["write", "Lamp", "LevelControl.OnLevel", "bright"],
                "error: LevelControl.OnLevel: the value is not an unsigned integer\n"
            ),
            (["write", "Lamp", "LevelControl.OnLevel", "7"], "error: no device \"Lamp\" (see 'home devices')\n"),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments + ["--state", state])
            #expect(output.exitCode == 2, "\(arguments)")
            #expect(output.standardError == message, "\(arguments)")
            #expect(output.standardOutput == "")
        }
    }

    /// A command of a cluster `home` has no command of its own for reaches the device, fields by name in any case,
    /// and what it did shows in the device's attributes.
    @Test func anyCommandReachesTheDeviceThroughTheHub() async throws {
        var template = Array((NSTemporaryDirectory() + "/swift-home-invoke-tests-XXXXXX").utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/hub"
        let store = DeviceStore(directory: directory + "/device")
        let settings = try store.loadOrCreate(
            DeviceSettings(kind: .dimmableLight, passcode: 20202021, discriminator: 3840))
        let device = try VirtualDevice(store: store, state: settings, port: 0, log: { _ in })
        try await device.start()
        let hub = try await Hub(statePath: state)
        _ = try await hub.commission(
            CommissioningRequest(
                payload: device.setupPayload, address: .ipv4(IPv4Address(127 << 24 | 1), port: device.port),
                trustStore: PAATrustStore(certificates: [try X509Certificate(derEncoded: device.attestation.paa)])),
            name: "lamp", room: nil, progress: { _ in })
        await hub.close()

        let moved = await HomeCommand.run([
            "invoke", "lamp", "levelcontrol.movetolevelwithonoff", "LEVEL=77", "transitionTime=0", "optionsMask=0",
            "optionsOverride=0", "--state", state,
        ])
        #expect(moved.exitCode == 0, "\(moved.standardError)")
        #expect(moved.standardOutput.hasSuffix(": LevelControl.MoveToLevelWithOnOff: done\n"))
        let level = await HomeCommand.run(["read", "lamp", "LevelControl.CurrentLevel", "--state", state])
        #expect(level.standardOutput == "77\n")
        let off = await HomeCommand.run(["invoke", "lamp", "OnOff.Off", "--json", "--state", state])
        #expect(off == .success("null\n"))
        let onOff = await HomeCommand.run(["read", "lamp", "OnOff.OnOff", "--state", state])
        #expect(onOff.standardOutput == "false\n")
        let written = await HomeCommand.run(["write", "lamp", "levelcontrol.onlevel", "200", "--state", state])
        #expect(written.exitCode == 0, "\(written.standardError)")
        #expect(written.standardOutput.hasSuffix(": LevelControl.OnLevel: done\n"))
        let onLevel = await HomeCommand.run(["read", "lamp", "LevelControl.OnLevel", "--state", state])
        #expect(onLevel.standardOutput == "200\n")
        await device.shutdown()
    }
}
