import BLEProxy
import MatterNode

/// The command line of `matter-device`: run a device, or export its PAA for a controller's trust store.
public enum DeviceCommandLine: Hashable, Sendable {
    public static let usage = """
        usage: matter-device [--type KIND] [--passcode N] [--discriminator N] [--iterations N] [--vendor-id N]
                             [--product-id N] [--software-version N] [--port N] [--state DIR] [--interface NAME…]
                             [--factory-reset] [--icd lit|sit [--icd-idle SECONDS]]
                             [--wifi SSID:PASSPHRASE… | --thread DATASET-HEX…] [--ble-proxy ws://HOST:PORT/ble
                             [--token-file FILE]]
               matter-device --count N [--base-port P] [--type KIND | --mix] [--iterations N] [--vendor-id N]
                             [--product-id N] [--state DIR] [--factory-reset]
               matter-device attestation export DIR [--state DIR]
               matter-device --help
        Runs a commissionable Matter device over IP of one KIND: \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")).
        Sensors drift, the contact sensor opens and closes, the switch panel's buttons are pressed on their own
        every few seconds. Its state (passcode verifier, attestation chain, fabrics)
        lives in DIR/device.json (default ./matter-device-state); the first start fixes its passcode,
        discriminator, iterations, type and IDs (random or default when not given). Advertises by mDNS, and
        hears the Matter groups it is put in, only on the named interfaces. Prints one JSON line of setup data, then one line per thing it does.
        --count runs a farm of N devices in one process, on ports P to P+N-1 (default 5540), each with its own
        passcode, discriminator, identity and state in DIR/<i>/, all of one KIND or --mix (every kind in turn);
        they share one development PAA, are reached by address (no mDNS; --interface is where they hear their
        groups) and take no console commands. It prints
        one JSON line per device ("index" its place), then each device's lines prefixed with its index.
        --wifi and --thread give it a Network Commissioning cluster and the networks its radio finds (a commissioner
        must give it one of them); with --ble-proxy it is fresh from its box: on no IP network until it joins the one
        it is given, found over Bluetooth LE only, as a BLE proxy client of the hub's /ble that owns one peripheral,
        itself (the hub's token from FILE when the hub asks for one).
        --icd makes it an intermittently connected device (ICD Management cluster): lit sleeps SECONDS between
        wakes (default 600), its radio off meanwhile, and checks in with the clients registered with it (a sleepy
        contact sensor: --type contact-sensor --icd lit); sit says it polls every few seconds and is always reached.
        --software-version is the version it runs from its first start; it takes OTA updates from a provider
        that announces itself (the hub: home update DEVICE) and runs the new version as after a reboot.
        'attestation export' writes the device's development PAA (paa.der) for a commissioner's trust store
        (a farm's: --state DIR/0).
        \(DeviceConsoleCommand.help)
        """

    public struct Run: Hashable, Sendable {
        public var settings = DeviceSettings()
        public var port: UInt16 = 5540
        public var stateDirectory = "matter-device-state"
        public var interfaces: [String] = []
        public var factoryReset = false
        /// The networks its simulated radio finds (`--wifi`, `--thread`).
        public var radio: SimulatedRadio?
        /// Fresh from its box, reachable through the hub's `/ble` only.
        public var bleProxy: BLEProxyEndpoint?
        public var tokenFile: String?
        /// An intermittently connected device (`--icd`, `--icd-idle`).
        public var intermittent: IntermittentConnection?
    }

    /// Many devices in one process (`DeviceFarm`).
    public struct Farm: Hashable, Sendable {
        public var count: Int
        public var basePort: UInt16 = 5540
        public var kinds: DeviceFarm.Kinds = .one(.light)
        public var settings = DeviceSettings()
        public var stateDirectory = "matter-device-state"
        public var factoryReset = false
        /// Where every device hears the Matter groups it is put in (a farm does not advertise by mDNS).
        public var interfaces: [String] = []

        /// One port per device, from the base port up.
        public var ports: [UInt16] { (0..<count).map { basePort + UInt16($0) } }
    }

    case run(Run)
    case farm(Farm)
    case exportAttestation(directory: String, stateDirectory: String)
    /// `--help` or `-h`, wherever it stands: the usage, on standard output.
    case help

    /// A usage error names the option and what it needed.
    public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(arguments: [String]) throws(UsageError) {
        // Asked for help, the user gets it whatever else the line says (as a value, `--state --help` is no path
        // anyone means).
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
            self = .help
            return
        }
        var remaining = arguments[...]
        if remaining.first == "attestation" {
            remaining.removeFirst()
            guard remaining.popFirst() == "export", let directory = remaining.popFirst() else {
                throw UsageError(description: "attestation needs: export DIR")
            }
            var stateDirectory = Run().stateDirectory
            while let option = remaining.popFirst() {
                guard option == "--state", let value = remaining.popFirst() else {
                    throw UsageError(description: "unknown option \(option)")
                }
                stateDirectory = value
            }
            self = .exportAttestation(directory: directory, stateDirectory: stateDirectory)
            return
        }
        var run = Run()
        var count: Int?
        var basePort: UInt16?
        var mix = false
        var icdIdle: UInt32?
        /// The options that describe one device only, which a farm refuses.
        var singleDeviceOptions: [String] = []
        while let option = remaining.popFirst() {
            if option == "--factory-reset" {
                run.factoryReset = true
                continue
            }
            if option == "--mix" {
                mix = true
                continue
            }
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            func number<Value: FixedWidthInteger>(_: Value.Type) throws(UsageError) -> Value {
                let parsed = value.hasPrefix("0x") ? Value(value.dropFirst(2), radix: 16) : Value(value)
                guard let parsed else {
                    throw UsageError(description: "\(option) needs a number that fits \(Value.self), got '\(value)'")
                }
                return parsed
            }
            switch option {
            case "--type":
                guard let kind = DeviceKind(rawValue: value) else {
                    throw UsageError(
                        description:
                            "--type is one of \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(value)'"
                    )
                }
                run.settings.kind = kind
            case "--passcode": run.settings.passcode = try number(UInt32.self)
            case "--discriminator": run.settings.discriminator = try number(UInt16.self)
            case "--iterations": run.settings.iterations = try number(UInt32.self)
            case "--vendor-id": run.settings.vendorID = try number(UInt16.self)
            case "--product-id": run.settings.productID = try number(UInt16.self)
            case "--software-version": run.settings.softwareVersion = try number(UInt32.self)
            case "--port": run.port = try number(UInt16.self)
            case "--state": run.stateDirectory = value
            case "--interface": run.interfaces += value.split(separator: ",").map(String.init)
            case "--count": count = try number(Int.self)
            case "--base-port": basePort = try number(UInt16.self)
            case "--wifi": run.radio = try Self.addingWiFi(value, to: run.radio)
            case "--thread": run.radio = try Self.addingThread(value, to: run.radio)
            case "--ble-proxy":
                do throws(BLEProxyEndpointError) {
                    run.bleProxy = try BLEProxyEndpoint(value)
                } catch {
                    throw UsageError(description: "--ble-proxy: \(error)")
                }
            case "--token-file": run.tokenFile = value
            case "--icd":
                guard let mode = IntermittentConnection.Mode(rawValue: value) else {
                    throw UsageError(description: "--icd is lit or sit, got '\(value)'")
                }
                run.intermittent = IntermittentConnection(mode: mode)
            case "--icd-idle":
                let seconds = try number(UInt32.self)
                guard IntermittentConnection.idleModeSecondsRange.contains(seconds) else {
                    throw UsageError(
                        description:
                            "--icd-idle is \(IntermittentConnection.idleModeSecondsRange.lowerBound) to \(IntermittentConnection.idleModeSecondsRange.upperBound) seconds (IdleModeDuration), got \(seconds)"
                    )
                }
                icdIdle = seconds
            default: throw UsageError(description: "unknown option \(option)")
            }
            if [
                "--passcode", "--discriminator", "--port", "--wifi", "--thread", "--ble-proxy", "--token-file", "--icd",
                "--icd-idle",
            ]
            .contains(
                option)
            {
                singleDeviceOptions.append(option)
            }
        }
        if let icdIdle {
            guard run.intermittent != nil else { throw UsageError(description: "--icd-idle needs --icd lit or sit") }
            run.intermittent?.idleModeSeconds = icdIdle
        }
        guard let count else {
            if mix || basePort != nil {
                throw UsageError(description: "\(mix ? "--mix" : "--base-port") is for a farm: give --count too")
            }
            if run.bleProxy != nil, run.radio == nil {
                throw UsageError(
                    description:
                        "--ble-proxy: a device fresh from its box must be near a network to be given: --wifi SSID:PASSPHRASE or --thread DATASET-HEX"
                )
            }
            if run.tokenFile != nil, run.bleProxy == nil {
                throw UsageError(description: "--token-file is the hub's token for --ble-proxy: give --ble-proxy too")
            }
            self = .run(run)
            return
        }
        if let option = singleDeviceOptions.first {
            throw UsageError(description: "--count takes no \(option): each device of a farm has its own")
        }
        guard DeviceConstants.farmSizes.contains(count) else {
            throw UsageError(
                description:
                    "--count must be \(DeviceConstants.farmSizes.lowerBound) to \(DeviceConstants.farmSizes.upperBound), got \(count)"
            )
        }
        var farm = Farm(count: count)
        if let basePort { farm.basePort = basePort }
        guard Int(farm.basePort) + count - 1 <= Int(UInt16.max), farm.basePort > 0 else {
            throw UsageError(
                description:
                    "--base-port \(farm.basePort) leaves no room for \(count) ports (1 to 65535, one per device)")
        }
        if mix {
            guard run.settings.kind == nil else { throw UsageError(description: "--mix and --type exclude each other") }
            farm.kinds = .mix
        } else if let kind = run.settings.kind {
            farm.kinds = .one(kind)
        }
        run.settings.kind = nil
        farm.settings = run.settings
        farm.stateDirectory = run.stateDirectory
        farm.factoryReset = run.factoryReset
        farm.interfaces = run.interfaces
        self = .farm(farm)
    }

    /// A Wi-Fi network the radio finds, `SSID:PASSPHRASE` (split at the first colon), beside those given before.
    private static func addingWiFi(_ value: String, to radio: SimulatedRadio?) throws(UsageError) -> SimulatedRadio {
        guard let colon = value.firstIndex(of: ":") else {
            throw UsageError(description: "--wifi needs SSID:PASSPHRASE, got '\(value)'")
        }
        let ssid = String(value[..<colon]), passphrase = String(value[value.index(after: colon)...])
        // Matter Core §11.9.7.3: an SSID of 1 to 32 octets; a WPA passphrase of 8 to 63 characters (or none: open).
        guard (1...32).contains(ssid.utf8.count) else {
            throw UsageError(description: "--wifi: an SSID is 1 to 32 bytes, '\(ssid)' has \(ssid.utf8.count)")
        }
        guard passphrase.isEmpty || (8...63).contains(passphrase.utf8.count) else {
            throw UsageError(description: "--wifi: a passphrase is 8 to 63 characters (or none, for an open network)")
        }
        let network = SimulatedRadio.WiFiNetwork(ssid: ssid, passphrase: passphrase)
        switch radio {
        case nil: return .wifi([network])
        case .wifi(let networks): return .wifi(networks + [network])
        case .thread:
            throw UsageError(description: "--wifi and --thread exclude each other: a radio is one or the other")
        }
    }

    /// A Thread network the radio finds, by its operational dataset's hex (its Extended PAN ID is what joins).
    private static func addingThread(_ value: String, to radio: SimulatedRadio?) throws(UsageError) -> SimulatedRadio {
        guard let dataset = ThreadOperationalDataset.bytes(hex: value) else {
            throw UsageError(description: "--thread needs an operational dataset in hex, two digits a byte")
        }
        let extendedPANID: [UInt8]
        do {
            extendedPANID = try ThreadOperationalDataset.extendedPANID(of: dataset)
        } catch {
            throw UsageError(description: "--thread: \(error)")
        }
        switch radio {
        case nil: return .thread(extendedPANIDs: [extendedPANID])
        case .thread(let known): return .thread(extendedPANIDs: known + [extendedPANID])
        case .wifi: throw UsageError(description: "--wifi and --thread exclude each other: a radio is one or the other")
        }
    }
}
