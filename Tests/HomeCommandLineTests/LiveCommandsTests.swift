import Foundation
import Testing

@testable import HomeCommandLine

@Suite struct LiveCommandsTests {
    @Test func refusesBadInputBeforeTouchingTheNetwork() async {
        let state = HubCommandsTests.temporaryState()
        let cases: [([String], String)] = [
            (["level", "Lamp", "255", "--state", state], "error: level '255' is not a number from 0 to 254\n"),
            (["level", "Lamp", "-1", "--state", state], "error: level '-1' is not a number from 0 to 254\n"),
            (
                ["read", "Lamp", "OnOff.Nothing", "--state", state],
                "error: OnOff has no attribute Nothing (its attributes: AcceptedCommandList, AttributeList, ClusterRevision, "
                    + "FeatureMap, GeneratedCommandList, GlobalSceneControl, OffWaitTime, OnOff, OnTime, StartUpOnOff)\n"
            ),
            (
                ["read", "Lamp", "OnOff", "--state", state],
                "error: unknown attribute 'OnOff': write Cluster.Attribute, e.g. OnOff.OnOff or BasicInformation.VendorName\n"
            ),
            (["on", "Lamp", "--state", state], "error: no device \"Lamp\" (see 'home devices')\n"),
            (["toggle", "Lamp", "--state", state], "error: no device \"Lamp\" (see 'home devices')\n"),
            (["read", "Lamp", "OnOff.OnOff", "--state", state], "error: no device \"Lamp\" (see 'home devices')\n"),
            (["watch", "Lamp", "--state", state], "error: no device \"Lamp\" (see 'home devices')\n"),
            (
                ["watch", "--duration", "0", "--state", state],
                "error: duration '0' is not a positive number of seconds\n"
            ),
            (
                ["watch", "--max-interval", "0", "--state", state],
                "error: max interval '0' is not a number of seconds from 1 to 3600\n"
            ),
            (
                ["watch", "--max-interval", "3601", "--state", state],
                "error: max interval '3601' is not a number of seconds from 1 to 3600\n"
            ),
            (
                ["off", "--state", state],
                "error: give a DEVICE, or --room ROOM (or --group GROUP) for every device of it\n"
            ),
            (
                ["on", "Lamp", "--room", "Hall", "--state", state],
                "error: give a DEVICE or --room ROOM (or --group GROUP), not both\n"
            ),
            (["level", "--room", "Hall", "--state", state], "error: give the LEVEL, 0 to 254\n"),
            (
                ["toggle", "--room", "Hall", "--group", "Corner", "--state", state],
                "error: give --room or --group, not both\n"
            ),
            (
                ["level", "--room", "Hall", "300", "--state", state],
                "error: level '300' is not a number from 0 to 254\n"
            ),
            (
                ["level", "Lamp", "12", "--room", "Hall", "--state", state],
                "error: with --room or --group, give only the LEVEL, not a device\n"
            ),
            (
                ["watch", "Lamp", "Hall", "--state", state],
                "error: unexpected argument 'Hall' (see 'home watch --help')\n"
            ),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments)
            #expect(output.exitCode == 2, "\(arguments)")
            #expect(output.standardError == message, "\(arguments)")
            #expect(output.standardOutput == "")
        }
    }

    @Test func watchingAHomeWithoutDevicesPrintsNothingAndEndsAfterItsDuration() async {
        let lines = Lines()
        let clock = ContinuousClock()
        let start = clock.now
        let output = await HomeCommand.run(
            ["watch", "--duration", "0.2", "--state", HubCommandsTests.temporaryState()],
            output: { line in Task { await lines.append(line) } })
        #expect(output == .success(""))
        #expect(clock.now - start >= .milliseconds(200))
        #expect(await lines.values.isEmpty)
    }

    @Test func helpShowsTheOptionalDevice() async {
        let help = await HomeCommand.run(["watch", "--help"])
        #expect(
            help.standardOutput.contains("USAGE: home watch [DEVICE] [--duration SECONDS] [--max-interval SECONDS]"))
    }
}

actor Lines {
    private(set) var values: [String] = []
    func append(_ line: String) { values.append(line) }
}
