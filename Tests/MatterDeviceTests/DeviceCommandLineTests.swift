import BLEProxy
import MatterDevice
import MatterDiscovery
import MatterPlatform
import Testing

struct DeviceCommandLineTests {
    @Test func runOptionsAreParsed() throws {
        let command = try DeviceCommandLine(arguments: [
            "--type", "light", "--passcode", "20202021", "--discriminator", "0xF00", "--iterations", "5000",
            "--vendor-id", "0xFFF2",
            "--product-id", "32769", "--software-version", "7", "--port", "5541", "--state", "/tmp/d", "--interface",
            "lo,eth0", "--interface",
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
                    productID: 32769, softwareVersion: 7))
        #expect(run.port == 5541 && run.stateDirectory == "/tmp/d" && run.factoryReset)
        #expect(run.interfaces == ["lo", "eth0", "wlan0"])
    }

    @Test func anIntermittentlyConnectedDeviceIsDescribedByItsModeAndIdleTime() throws {
        guard case .run(let run) = try DeviceCommandLine(arguments: ["--icd-idle", "20", "--icd", "lit"]) else {
            Issue.record("expected run")
            return
        }
        #expect(run.intermittent == IntermittentConnection(mode: .lit, idleModeSeconds: 20))
        guard case .run(let sit) = try DeviceCommandLine(arguments: ["--icd", "sit"]) else {
            Issue.record("expected run")
            return
        }
        #expect(sit.intermittent?.mode == .sit && sit.intermittent?.idleModeSeconds == 5)
        #expect(usageError(["--icd", "deep"]) == "--icd is lit or sit, got 'deep'")
        #expect(usageError(["--icd-idle", "30"]) == "--icd-idle needs --icd lit or sit")
        #expect(
            usageError(["--icd", "lit", "--icd-idle", "0"])
                == "--icd-idle is 1 to 64800 seconds (IdleModeDuration), got 0")
        #expect(
            usageError(["--count", "2", "--icd", "lit"]) == "--count takes no --icd: each device of a farm has its own")
    }

    @Test func withoutInterfacesNothingIsAdvertised() throws {
        guard case .run(let run) = try DeviceCommandLine(arguments: []) else {
            Issue.record("expected run")
            return
        }
        #expect(run.interfaces.isEmpty)
        #expect(run.port == 5540)
    }

    @Test func countRunsAFarmOnConsecutivePorts() throws {
        let command = try DeviceCommandLine(arguments: [
            "--count", "3", "--base-port", "6000", "--mix", "--iterations", "1000", "--state", "/tmp/farm",
        ])
        guard case .farm(let farm) = command else {
            Issue.record("expected a farm, got \(command)")
            return
        }
        #expect(farm.ports == [6000, 6001, 6002])
        #expect(farm.kinds == .mix && farm.settings == DeviceSettings(iterations: 1000))
        #expect(farm.stateDirectory == "/tmp/farm" && !farm.factoryReset)
        guard case .farm(let lights) = try DeviceCommandLine(arguments: ["--count", "2", "--type", "plug"]) else {
            Issue.record("expected a farm")
            return
        }
        #expect(lights.kinds == .one(.plug) && lights.ports == [5540, 5541])
        // A farm's interfaces are where its devices hear their groups.
        guard case .farm(let grouped) = try DeviceCommandLine(arguments: ["--count", "2", "--interface", "lo"]) else {
            Issue.record("expected a farm")
            return
        }
        #expect(grouped.interfaces == ["lo"])
    }

    @Test func aFarmRefusesWhatNamesOneDevice() {
        #expect(
            usageError(["--count", "2", "--passcode", "20202021"])
                == "--count takes no --passcode: each device of a farm has its own")
        #expect(
            usageError(["--count", "2", "--port", "5540"])
                == "--count takes no --port: each device of a farm has its own")
        #expect(usageError(["--count", "0"]) == "--count must be 1 to 10000, got 0")
        #expect(
            usageError(["--count", "10", "--base-port", "65530"])
                == "--base-port 65530 leaves no room for 10 ports (1 to 65535, one per device)")
        #expect(usageError(["--count", "2", "--mix", "--type", "fan"]) == "--mix and --type exclude each other")
        #expect(usageError(["--mix"]) == "--mix is for a farm: give --count too")
    }

    @Test func aDeviceFreshFromItsBoxIsNearTheNetworksGivenAndReachesTheHubsBLEEndpoint() throws {
        let command = try DeviceCommandLine(arguments: [
            "--wifi", "home:secret99", "--wifi", "cafe:", "--ble-proxy", "ws://[::1]:5581/ble?x=1",
            "--token-file", "/tmp/token",
        ])
        guard case .run(let run) = command else {
            Issue.record("expected run, got \(command)")
            return
        }
        #expect(
            run.radio
                == .wifi([
                    .init(ssid: "home", passphrase: "secret99"), .init(ssid: "cafe", passphrase: ""),
                ]))
        #expect(run.bleProxy?.address == .ipv6(IPv6Address(0, 1), port: 5581))
        #expect(run.bleProxy?.target == "/ble?x=1" && run.bleProxy?.host == "[::1]:5581")
        #expect(run.tokenFile == "/tmp/token")
        // A Thread radio knows its network by the dataset's Extended PAN ID.
        guard
            case .run(let thread) = try DeviceCommandLine(arguments: [
                "--thread", "0003000011 0208 DEAD00BEEF00CAFE", "--ble-proxy", "ws://localhost/ble",
            ])
        else {
            Issue.record("expected run")
            return
        }
        #expect(thread.radio == .thread(extendedPANIDs: [[0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0xCA, 0xFE]]))
        #expect(thread.bleProxy?.address == .ipv4(IPv4Address(127 << 24 | 1), port: 5580))
    }

    @Test func aDeviceFreshFromItsBoxRefusesWhatCannotWork() {
        #expect(
            usageError(["--ble-proxy", "ws://127.0.0.1:5580/ble"])
                == "--ble-proxy: a device fresh from its box must be near a network to be given: --wifi SSID:PASSPHRASE or --thread DATASET-HEX"
        )
        #expect(usageError(["--wifi", "home"]) == "--wifi needs SSID:PASSPHRASE, got 'home'")
        #expect(
            usageError(["--wifi", "home:short"])
                == "--wifi: a passphrase is 8 to 63 characters (or none, for an open network)")
        #expect(
            usageError(["--wifi", "home:secret99", "--thread", "02080102030405060708"])
                == "--wifi and --thread exclude each other: a radio is one or the other")
        #expect(usageError(["--thread", "0300"]) == "--thread: the Thread operational dataset has no Extended PAN ID")
        #expect(usageError(["--thread", "zz"]) == "--thread needs an operational dataset in hex, two digits a byte")
        #expect(
            usageError(["--ble-proxy", "http://hub/ble"])?.hasPrefix("--ble-proxy: http://hub/ble is not a ws:// URL")
                == true)
        #expect(
            usageError(["--ble-proxy", "ws://hub.local/ble", "--wifi", "a:secret99"])
                == "--ble-proxy: ws://hub.local/ble: the host must be a numeric address or localhost")
        #expect(
            usageError(["--token-file", "/tmp/t"])
                == "--token-file is the hub's token for --ble-proxy: give --ble-proxy too")
        #expect(
            usageError(["--count", "2", "--wifi", "a:secret99"])
                == "--count takes no --wifi: each device of a farm has its own")
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

    @Test func helpIsTheUsageWhereverItStands() throws {
        for arguments in [
            ["--help"], ["-h"], ["--type", "light", "--help"], ["--state", "--help"], ["attestation", "-h"],
        ] {
            #expect(try DeviceCommandLine(arguments: arguments) == .help, "\(arguments)")
        }
    }
}
