import MatterDevice
import Testing

struct DeviceConsoleCommandTests {
    @Test func commandsAreParsedFromALine() throws {
        #expect(try DeviceConsoleCommand.parse("add-bridged Shed light") == .addBridged(label: "Shed light"))
        #expect(try DeviceConsoleCommand.parse("  add-bridged   Shed light  ") == .addBridged(label: "Shed light"))
        #expect(try DeviceConsoleCommand.parse("remove-bridged 4") == .removeBridged(endpoint: 4))
        #expect(try DeviceConsoleCommand.parse("press 2") == .perform(.press, endpoint: 2))
        #expect(try DeviceConsoleCommand.parse("contact open") == .perform(.contact(closed: false), endpoint: nil))
        #expect(try DeviceConsoleCommand.parse("contact closed") == .perform(.contact(closed: true), endpoint: nil))
        #expect(try DeviceConsoleCommand.parse("   ") == nil)
    }

    @Test func mistakesSayWhatWasExpected() {
        #expect(usageError("add-bridged") == "add-bridged needs a LABEL")
        #expect(usageError("remove-bridged four") == "remove-bridged needs an ENDPOINT number, got 'four'")
        #expect(usageError("remove-bridged 70000") == "remove-bridged needs an ENDPOINT number, got '70000'")
        #expect(usageError("press") == "press needs an ENDPOINT number, got ''")
        #expect(usageError("contact ajar") == "contact is open or closed, got 'ajar'")
        #expect(
            usageError("add Shed")
                == "unknown command 'add' (commands: add-bridged LABEL, remove-bridged ENDPOINT, press ENDPOINT, "
                + "contact open|closed)")
    }

    @Test func theUsageShowsTheCommands() {
        #expect(
            DeviceCommandLine.usage.hasSuffix(
                """
                While it runs, standard input takes one command a line:
                  add-bridged LABEL         a bridge adds a bridged On/Off Light called LABEL (1 to 32 bytes)
                  remove-bridged ENDPOINT   a bridge removes the bridged device on ENDPOINT
                  press ENDPOINT            the button on ENDPOINT is pressed (released at the next simulation step)
                  contact open|closed       the contact sensor's contact opens or closes
                """))
    }

    /// A button pressed by hand is pressed once (held, pressing it again does nothing); only a device with the control
    /// takes the action. The devices do not act on their own meanwhile (an hour's simulation step), however slow the
    /// machine.
    @Test func aPanelsButtonAndASensorsContactActByHand() async throws {
        try await withTemporaryDirectory { directory in
            let still = Simulation(interval: .seconds(3600))
            let panel = try await LoopbackFixture.start(
                in: directory, kind: .switchPanel, simulation: still, name: "panel")
            for line in ["press 2", "press 2", "press 4"] {
                try await #require(try DeviceConsoleCommand.parse(line)).run(on: panel.device)
            }
            #expect(
                panel.lines.all.filter { $0.contains("button") }
                    == ["[switch-panel] button 2 pressed", "[switch-panel] button 4 pressed"])
            await #expect(throws: DeviceError.invalidSetting("endpoint 0 has no button")) {
                try await #require(try DeviceConsoleCommand.parse("press 0")).run(on: panel.device)
            }
            await #expect(throws: DeviceError.invalidSetting("this device has no contact")) {
                try await #require(try DeviceConsoleCommand.parse("contact open")).run(on: panel.device)
            }
            await panel.device.shutdown()

            let sensor = try await LoopbackFixture.start(
                in: directory, kind: .contactSensor, simulation: still, name: "sensor")
            for line in ["contact open", "contact open", "contact closed"] {
                try await #require(try DeviceConsoleCommand.parse(line)).run(on: sensor.device)
            }
            #expect(
                sensor.lines.all.filter { $0.hasPrefix("[contact-sensor]") }
                    == ["[contact-sensor] open", "[contact-sensor] closed"])
            await sensor.device.shutdown()
        }
    }

    /// What a person typing the commands to a running bridge sees, and what happens to a line the device refuses.
    @Test func aBridgeRunsTheCommandsAndPrintsWhatItDid() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory, kind: .bridge)
            for line in ["add-bridged Shed light", "remove-bridged 4", "add-bridged Porch light"] {
                try await #require(try DeviceConsoleCommand.parse(line)).run(on: fixture.device)
            }
            await #expect(throws: DeviceError.bridging("endpoint 4 does not exist (bridged devices: 2, 3, 5)")) {
                try await #require(try DeviceConsoleCommand.parse("remove-bridged 4")).run(on: fixture.device)
            }
            #expect(
                fixture.lines.all.filter { $0.hasPrefix("[bridge]") } == [
                    "[bridge] added \"Shed light\" on endpoint 4",
                    "[bridge] removed endpoint 4",
                    "[bridge] added \"Porch light\" on endpoint 5",
                ])
            #expect(
                DeviceError.bridging("endpoint 4 does not exist (bridged devices: 2, 3, 5)").description
                    == "bridge: endpoint 4 does not exist (bridged devices: 2, 3, 5)")
            await fixture.device.shutdown()
        }
    }

    private func usageError(_ line: String) -> String? {
        do {
            _ = try DeviceConsoleCommand.parse(line)
            return nil
        } catch {
            return error.description
        }
    }
}
