import Foundation
import MatterDevice
import MatterOnboarding
import Testing

@testable import HomeCommandLine

/// `home commission --from FILE`: a box of devices added side by side, each reported on its own; one that fails does
/// not stop the others.
struct CommissionManyTests {
    @Test func aFileOfDevicesIsAddedSideBySideAndEachIsReported() async throws {
        let directory = HubCommandsTests.temporaryState()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let farm = try DeviceFarm.open(directory: directory + "/farm", ports: [0, 0, 0], kinds: .mix)
        try await farm.start()
        let paa = directory + "/paa"
        try FileManager.default.createDirectory(atPath: paa, withIntermediateDirectories: true)
        try Data(farm.devices[0].attestation.paa).write(to: URL(fileURLWithPath: paa + "/farm.der"))
        // The third line's passcode is not its device's: that one fails PASE, the other two are added.
        var wrong = farm.devices[2].setupPayload
        wrong.passcode = wrong.passcode == 20202021 ? 20202022 : 20202021
        let lines = [
            "\(farm.setups[0].manualCode) 127.0.0.1:\(farm.setups[0].port)",
            "\(farm.setups[1].qr) 127.0.0.1:\(farm.setups[1].port)  # the second",
            "\(try wrong.qrCode()) 127.0.0.1:\(farm.setups[2].port)",
        ]
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: directory + "/devices.txt", atomically: true, encoding: .utf8)
        let output = await HomeCommand.run([
            "commission", "--from", directory + "/devices.txt", "--paa-trust-store", paa, "--state", directory + "/hub",
        ])
        await farm.shutdown()
        #expect(output.exitCode == 1)
        let added = output.standardOutput.split(separator: "\n")
        #expect(added.count == 2)
        #expect(added.first?.hasPrefix(farm.setups[0].manualCode + "  ") == true)
        #expect(added.last?.hasPrefix(farm.setups[1].qr + "  ") == true)
        #expect(output.standardError.contains("error: \(try wrong.qrCode()): "))
        #expect(output.standardError.hasSuffix("1 of 3 devices were not added\n"))
        let listed = await HomeCommand.run(["devices", "--json", "--state", directory + "/hub"])
        #expect(listed.exitCode == 0)
        #expect(listed.standardOutput.components(separatedBy: "\"id\"").count - 1 >= 2)
    }
}
