// RFC 6762 §6 host records: the name a responder's SRV records point to and the addresses it answers for it.
public struct ResponderHost: Hashable, Sendable {
    /// Such as `0123456789ABCDEF.local` (Matter Core §4.3.1: 12 or 16 hex digits, from a MAC address or random).
    public var name: DNSName
    public var ipv4Addresses: [IPv4Address]
    public var ipv6Addresses: [IPv6Address]

    public init(name: DNSName, ipv4Addresses: [IPv4Address], ipv6Addresses: [IPv6Address]) {
        self.name = name
        self.ipv4Addresses = ipv4Addresses
        self.ipv6Addresses = ipv6Addresses
    }

    /// A fresh `<16 uppercase hex digits>.local`, for a node with no MAC address of its own to use.
    public static func randomName(using generator: inout some RandomNumberGenerator) -> DNSName {
        DNSName(labels: [MatterServiceName.hex16(generator.next()), "local"])
    }
}
