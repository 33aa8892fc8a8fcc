import Foundation
import Synchronization
import Testing

@testable import HomeCommandLine

@Suite struct DemoCommandTests {
    @Test(
        "`home demo` adds the six virtual devices (one fresh from its box, over Bluetooth LE), shows the switch panel as one multipart device, switches, dims, renames, watches, has the bridge add a bridged light that appears live, and exits 0 with one line per step"
    )
    func demoRunsEveryStep() async throws {
        let lines = Mutex<[String]>([])
        let output = await HomeCommand.run(["demo"], output: { line in lines.withLock { $0.append(line) } })
        #expect(output.exitCode == 0)
        #expect(output.standardError == "")
        // Step lines without their timings; the table's lines are indented and the temperatures vary.
        let steps = lines.withLock { $0 }.filter { !$0.hasPrefix(" ") }.map { line in
            line.replacing(/\ in \d+ ms$/, with: "").replacing(/drift: .*/, with: "drift")
        }
        #expect(
            steps == [
                "✓ started 6 virtual devices on 127.0.0.1, no mDNS (Porch door fresh from its box, on Bluetooth LE only)",
                "✓ opened a new hub",
                "✓ the hub holds Wi-Fi \"demo-home\" (home network) and hears 1 device over an in-process BLE proxy",
                "✓ added Kitchen light (light)",
                "✓ added Living room lamp (dimmable-light)",
                "✓ added Bedroom sensor (temperature-sensor)",
                "✓ added Hall switches (switch-panel, 4 devices)",
                "✓ added Garage bridge (bridge, 2 devices)",
                "✓ added Porch door (contact-sensor) over Bluetooth LE: given Wi-Fi \"demo-home\", it joined and was found on IP",
                "✓ followed 10 devices live, all online",
                "✓ listed 10 devices with their types, rooms and connectivity",
                "✓ Hall switches as one multipart device: 4 Generic Switch parts tagged Number 1, Number 2, Number 3, Number 4 (types.getAll, metadata.semanticTags)",
                "✓ switched on Kitchen light (OnOffTrait.on, the device reports on)",
                "✓ dimmed Living room lamp to level 127 of 254 (LevelControlTrait.moveToLevelWithOnOff)",
                "✓ renamed Living room lamp: 75 code points asked, 60 kept: \"Living room lamp by the big window, next to the bookshelf, o\"",
                "✓ watched Bedroom sensor drift",
                "✓ Garage bridge added a bridged light on endpoint 4: it appears live as Shed light, in no room (home.devices().batched())",
                "✓ shut down the hub and 6 devices",
            ])
        let table = lines.withLock { $0 }.filter { $0.hasPrefix(" ") }
        #expect(table.contains("    Kitchen light     On/Off Light                      Kitchen      online"))
        #expect(table.count == 11)
    }

    @Test("`home demo --keep DIR` leaves the hub's and the devices' state in DIR")
    func keepLeavesTheState() async throws {
        var template = Array((NSTemporaryDirectory() + "/swift-home-demo-tests-XXXXXX").utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = await HomeCommand.run(["demo", "--keep", directory])
        #expect(output == .success("The hub's and the devices' state is in \(directory).\n"))
        #expect(FileManager.default.fileExists(atPath: directory + "/devices/bridge/device.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/paa").count == 6)
    }
}
