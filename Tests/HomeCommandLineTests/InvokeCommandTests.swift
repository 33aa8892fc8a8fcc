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
                "error: LevelControl.MoveToLevel: field level is an integer from 0 to 255, not high\n"
            ),
            (
                [
                    "invoke", "Lamp", "LevelControl.MoveToLevel", "level=300", "transitionTime=0", "optionsMask=0",
                    "optionsOverride=0",
                ],
                "error: LevelControl.MoveToLevel: field level is an integer from 0 to 255, not 300\n"
            ),
            (
                [
                    "invoke", "Lamp", "LevelControl.Move", "moveMode=Sideways", "rate=1", "optionsMask=0",
                    "optionsOverride=0",
                ],
                "error: LevelControl.Move: field moveMode is one of Up (0), Down (1), not Sideways\n"
            ),
            (
                // A number the enum does not name is refused too: the terminal sends only what the data model knows.
                ["invoke", "Lamp", "LevelControl.Move", "moveMode=7", "rate=1", "optionsMask=0", "optionsOverride=0"],
                "error: LevelControl.Move: field moveMode is one of Up (0), Down (1), not 7\n"
            ),
            (
                ["invoke", "Lamp", "LevelControl.Move", "moveMode=up", "rate=1", "optionsMask=4", "optionsOverride=0"],
                "error: LevelControl.Move: field optionsMask is a bitmap of bits 0x3, not 4\n"
            ),
            (
                ["invoke", "Lamp", "OnOf.Toggle"],
                "error: unknown cluster 'OnOf' in 'OnOf.Toggle' (did you mean OnOff?): write Cluster.Command, e.g. OnOff.Toggle\n"
            ),
            (
                ["invoke", "Lamp", "OnOff.Togle"],
                "error: OnOff has no command Togle (did you mean Toggle?) (its commands: Off, OffWithEffect, On, OnWithRecallGlobalScene, OnWithTimedOff, Toggle)\n"
            ),
            (
                ["invoke", "Lamp", "OnOff.OffWithEffect", "efectIdentifier=0", "effectVariant=0"],
                "error: OnOff.OffWithEffect: the command has no field efectIdentifier (did you mean effectIdentifier?) (its fields: effectIdentifier, effectVariant)\n"
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
            (
                ["invoke", "Lamp", "OnOff.Off", "--endpoint", "root"],
                "error: --endpoint root is no endpoint number (0 to 65535)\n"
            ),
            (["invoke", "Lamp", "onoff.off"], "error: no device \"Lamp\" (see 'home devices')\n"),
            (
                ["write", "Lamp", "OnOff", "3"],
                "error: unknown attribute 'OnOff': write Cluster.Attribute, e.g. LevelControl.OnLevel\n"
            ),
            (
                ["write", "Lamp", "LevelControl.OnLevl", "3"],
                "error: LevelControl has no attribute OnLevl (did you mean OnLevel?) (its attributes: "
            ),
            (
                ["write", "Lamp", "LevelControll.OnLevel", "3"],
                "error: unknown cluster 'LevelControll' in 'LevelControll.OnLevel' (did you mean LevelControl?): write Cluster.Attribute, e.g. LevelControl.OnLevel\n"
            ),
            (
                ["write", "Lamp", "OnOff.OnOff", "true"],
                "error: OnOff.OnOff is not an attribute a client may write\n"
            ),
            (
                ["write", "Lamp", "LevelControl.OnLevel", "bright"],
                "error: LevelControl.OnLevel: the value is an integer from 0 to 255, not bright\n"
            ),
            (["write", "Lamp", "LevelControl.OnLevel", "7"], "error: no device \"Lamp\" (see 'home devices')\n"),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments + ["--state", state])
            #expect(output.exitCode == 2, "\(arguments)")
            // A message that lists what the data model has is checked up to the list.
            #expect(
                message.hasSuffix("\n") ? output.standardError == message : output.standardError.hasPrefix(message),
                "\(arguments): \(output.standardError)")
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
        // Without an attribute: every one of the endpoint, by the names read and write take.
        let all = await HomeCommand.run(["read", "lamp", "--state", state])
        #expect(all.exitCode == 0, "\(all.standardError)")
        let lines = all.standardOutput.split(separator: "\n")
        #expect(lines.contains("LevelControl.OnLevel: 200"))
        #expect(lines.contains("OnOff.OnOff: false"))
        #expect(lines.contains { $0.hasPrefix("Descriptor.ServerList: ") })
        await device.shutdown()
    }
}
