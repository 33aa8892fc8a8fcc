import MatterDiscovery

// RFC 6762 addresses and the querier's and responder's pacing, each with its reason.
enum MulticastDNSConstants {
    /// RFC 6762 §3: the mDNS port; responders answer from it and listen on it.
    static let port: UInt16 = 5353
    /// RFC 6762 §3: the IPv4 group 224.0.0.251.
    static let ipv4Group = SocketAddress.ipv4(IPv4Address(0xE000_00FB), port: port)
    /// RFC 6762 §3: the link-local IPv6 group ff02::fb, on the interface with index `scope`.
    static func ipv6Group(scope: UInt32) -> SocketAddress {
        .ipv6(IPv6Address(0xFF02_0000_0000_0000, 0xFB), port: port, scopeID: scope)
    }
    /// The wildcard addresses sockets bind to.
    static let ipv4Any = IPv4Address(0)
    static let ipv6Any = IPv6Address(0, 0)
    /// RFC 6762 §11: multicast goes out with TTL / hop limit 255.
    static let hopLimit: Int32 = 255
    /// RFC 6762 §17: the largest mDNS packet.
    static let maximumPacketSize = 9000
}
