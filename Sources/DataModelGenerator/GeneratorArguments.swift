/// The command line of datamodel-generator.
struct GeneratorArguments: Equatable {
    var idlPath: String
    var deviceTypesPath: String?
    var outputPath: String
    /// Where the Home API traits (and, with device types, device types) go; nil generates none.
    var traitsPath: String?
    var clusters: [String]?
    var namespace: String?
    /// Credits the input in each file header: "connectedhomeip, Apache-2.0".
    var attribution: String?

    static let usage = """
        usage: datamodel-generator --idl FILE.matter --output DIR [--device-types FILE.xml] [--clusters A,B,…]
                                   [--namespace NAME] [--attribution TEXT] [--traits DIR]
          --idl           Matter IDL to generate clusters from
          --output        folder for the generated Swift (earlier generated files there are replaced)
          --device-types  device-type XML to generate MatterDeviceTypes from
          --clusters      IDL cluster names to generate (default: every cluster of the IDL)
          --namespace     wrap everything in this enum, for vendor clusters in an app's own package
          --attribution   where the input comes from and its licence, for the file headers
          --traits        folder for the Home API traits of the clusters (and device types, with --device-types)
        """

    init(_ arguments: [String]) throws(GeneratorError) {
        var values: [String: String] = [:]
        var remaining = arguments[...]
        while let option = remaining.popFirst() {
            guard
                ["--idl", "--device-types", "--output", "--clusters", "--namespace", "--attribution", "--traits"]
                    .contains(option)
            else {
                throw .usage("unknown option '\(option)'\n" + Self.usage)
            }
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw .usage("\(option) needs a value\n" + Self.usage)
            }
            values[option] = value
        }
        guard let idl = values["--idl"], let output = values["--output"] else {
            throw .usage("--idl and --output are required\n" + Self.usage)
        }
        idlPath = idl
        outputPath = output
        deviceTypesPath = values["--device-types"]
        clusters = values["--clusters"].map { $0.split(separator: ",").map { $0.trimmingSpaces() } }
        namespace = values["--namespace"]
        attribution = values["--attribution"]
        traitsPath = values["--traits"]
        if let namespace,
            namespace.isEmpty || !namespace.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
                || namespace.first?.isNumber == true
        {
            throw .usage("--namespace must be a Swift type name, not '\(namespace)'")
        }
        if namespace != nil && deviceTypesPath != nil {
            throw .usage(
                "--device-types generates the standard MatterDeviceTypes; it cannot go into a vendor namespace")
        }
    }
}
