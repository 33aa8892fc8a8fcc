import MatterDataModel
import MatterDiscovery

// Matter Core §11.12.6.1 NetworkInterface: addresses as a person reads them.
extension GeneralDiagnosticsCluster.NetworkInterface {
    /// IPv4 addresses as dotted quads ("192.168.1.20"); an entry that is not 4 bytes is left out.
    public var ipv4AddressStrings: [String] {
        iPv4Addresses.compactMap { IPv4Address(bytes: $0)?.description }
    }

    /// IPv6 addresses in RFC 5952 form ("fe80::1"); an entry that is not 16 bytes is left out.
    public var ipv6AddressStrings: [String] {
        iPv6Addresses.compactMap { IPv6Address(bytes: $0)?.description }
    }
}
