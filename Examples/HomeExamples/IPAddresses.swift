import HomeAPI

/// List a device's IP addresses, from its node's General Diagnostics network interfaces.
enum IPAddresses {
    static func run(_ home: Home, device name: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        let interfaces = await device.types.get(RootNodeDeviceType.self)?.matterTraits.generalDiagnosticsTrait?
            .attributes.networkInterfaces
        guard let interfaces, !interfaces.isEmpty else {
            print("\(device.name): no network interfaces reported")
            return
        }
        for interface in interfaces {
            print(
                "\(interface.name): "
                    + (interface.ipv4AddressStrings + interface.ipv6AddressStrings).joined(separator: ", "))
        }
    }
}
