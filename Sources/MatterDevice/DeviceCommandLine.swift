/// The command line of `matter-device`: run a device, or export its PAA for a controller's trust store.
public enum DeviceCommandLine: Hashable, Sendable {
    public static let usage = """
        usage: matter-device [--type KIND] [--passcode N] [--discriminator N] [--iterations N] [--vendor-id N]
                             [--product-id N] [--port N] [--state DIR] [--interface NAME…] [--factory-reset]
               matter-device attestation export DIR [--state DIR]
        Runs a commissionable Matter device over IP of one KIND: \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")).
        Sensors drift, the contact sensor opens and closes, the switch panel's buttons are pressed on their own
        every few seconds. Its state (passcode verifier, attestation chain, fabrics)
        lives in DIR/device.json (default ./matter-device-state); the first start fixes its passcode,
        discriminator, iterations, type and IDs (random or default when not given). Advertises by mDNS only on
        the named interfaces. Prints one JSON line of setup data, then one line per thing it does.
        'attestation export' writes the device's development PAA (paa.der) for a commissioner's trust store.
        \(DeviceConsoleCommand.help)
        """

    public struct Run: Hashable, Sendable {
        public var settings = DeviceSettings()
        public var port: UInt16 = 5540
        public var stateDirectory = "matter-device-state"
        public var interfaces: [String] = []
        public var factoryReset = false
    }

    case run(Run)
    case exportAttestation(directory: String, stateDirectory: String)

    /// A usage error names the option and what it needed.
    public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(arguments: [String]) throws(UsageError) {
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
        while let option = remaining.popFirst() {
            if option == "--factory-reset" {
                run.factoryReset = true
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
            case "--port": run.port = try number(UInt16.self)
            case "--state": run.stateDirectory = value
            case "--interface": run.interfaces += value.split(separator: ",").map(String.init)
            default: throw UsageError(description: "unknown option \(option)")
            }
        }
        self = .run(run)
    }
}
