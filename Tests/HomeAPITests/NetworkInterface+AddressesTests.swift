import HomeAPI
import MatterDataModel
import Testing

@Suite struct NetworkInterfaceAddressesTests {
    @Test func formatsAddressesAsPeopleWriteThem() {
        let interface = GeneralDiagnosticsCluster.NetworkInterface(
            name: "eth0", isOperational: true, offPremiseServicesReachableIPv4: .null,
            offPremiseServicesReachableIPv6: .null,
            hardwareAddress: [0x02, 0, 0, 0, 0, 1],
            iPv4Addresses: [[192, 168, 1, 20], [10, 0, 0]],
            iPv6Addresses: [
                [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1],
                [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
            ],
            type: .init(rawValue: 2))
        #expect(interface.ipv4AddressStrings == ["192.168.1.20"])
        // RFC 5952 §4.2.3: the first of two equal runs of zeros is the one shortened.
        #expect(interface.ipv6AddressStrings == ["fe80::1", "2001:db8::1:0:0:1"])
    }
}
