import MatterDiscovery

extension CommissionableNode {
    /// Where to reach it: IPv6 first (Matter's preference), then IPv4.
    public var socketAddresses: [SocketAddress] {
        ipv6Addresses.map { SocketAddress.ipv6($0, port: port) }
            + ipv4Addresses.map { SocketAddress.ipv4($0, port: port) }
    }
}

extension OperationalNode {
    /// Where to reach it: IPv6 first (Matter's preference), then IPv4.
    public var socketAddresses: [SocketAddress] {
        ipv6Addresses.map { SocketAddress.ipv6($0, port: port) }
            + ipv4Addresses.map { SocketAddress.ipv4($0, port: port) }
    }
}
