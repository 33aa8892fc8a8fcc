import MatterDevice
import Testing

struct DeviceCommandLineTests {
    @Test func runOptionsAreParsed() throws {
        let command = try DeviceCommandLine(arguments: [
            "--type", "light", "--passcode", "20202021", "--discriminator", "0xF00", "--iterations", "5000",
            "--vendor-id", "0xFFF2",
            "--product-id", "32769", "--port", "5541", "--state", "/tmp/d", "--interface", "lo,eth0", "--interface",
            "wlan0", "--factory-reset",
        ])
        guard case .run(let run) = command else {
            Issue.record("expected run, got \(command)")
            return
        }
        #expect(
            run.settings
                == DeviceSettings(
                    kind: .light, passcode: 20202021, discriminator: 0xF00, iterations: 5000, vendorID: 0xFFF2,
                    productID: 32769))
        #expect(run.port == 5541 && run.stateDirectory == "/tmp/d" && run.factoryReset)
        #expect(run.interfaces == ["lo", "eth0", "wlan0"])
    }

    @Test func withoutInterfacesNothingIsAdvertised() throws {
        guard case .run(let run) = try DeviceCommandLine(arguments: []) else {
            Issue.record("expected run")
            return
        }
        #expect(run.interfaces.isEmpty)
        #expect(run.port == 5540)
    }

    @Test func exportNamesItsDirectory() throws {
        #expect(
            try DeviceCommandLine(arguments: ["attestation", "export", "/tmp/paa", "--state", "/tmp/d"])
                == .exportAttestation(directory: "/tmp/paa", stateDirectory: "/tmp/d"))
    }

    @Test func mistakesNameTheOption() {
        #expect(
            usageError(["--type", "lamp"])
                == "--type is one of light, dimmable-light, color-temperature-light, extended-color-light, plug, fan, "
                + "temperature-sensor, humidity-sensor, contact-sensor, switch-panel, bridge, got 'lamp'")
        #expect(usageError(["--port", "70000"]) == "--port needs a number that fits UInt16, got '70000'")
        #expect(usageError(["--passcode"]) == "--passcode needs a value")
        #expect(usageError(["attestation", "import"]) == "attestation needs: export DIR")
    }

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try DeviceCommandLine(arguments: arguments)
            return nil
        } catch {
            return error.description
        }
    }
}
