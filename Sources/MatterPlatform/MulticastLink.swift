import MatterDiscovery

/// How a transport takes part in IPv6 multicast groups (Matter Core §4.16: group messages): a socket per group
/// address that receives only that group's datagrams, and sending to a group out of a named interface. The caller
/// always names the interfaces: this machine may have ones that must never carry test traffic.
public protocol MulticastLink: Sendable {
    /// A socket that receives the datagrams sent to `group` (address and port) on `interfaces`, and nothing else.
    func join(_ group: SocketAddress, interfaces: [String]) throws(SocketError) -> any DatagramSocket
    /// Sends `bytes` to `group` out of `interface`.
    func send(_ bytes: [UInt8], to group: SocketAddress, interface: String) throws(SocketError)
}

/// IPv6 multicast over UDP sockets. Each group gets a socket bound to the group address itself on the group port
/// (`NodeMulticast.groupPort`), with the port shared: every node of the host (each device of a farm too) joins
/// there, whatever port it answers unicast on, and unicast datagrams to that port never reach these sockets
/// because their destination is not the bound address. Sending goes through one socket of its own, its interface
/// chosen per datagram; loopback stays on (the default), so nodes on this host hear what it sends.
public final class UDPMulticastLink: MulticastLink {
    private let sender: UDPSocket

    public init() throws(SocketError) {
        sender = try UDPSocket(family: .ipv6)
    }

    public func join(_ group: SocketAddress, interfaces: [String]) throws(SocketError) -> any DatagramSocket {
        let socket = try UDPSocket(family: .ipv6)
        try socket.allowPortSharing()
        try socket.receiveOnlyJoinedGroups()
        try socket.bind(to: group)
        for interface in interfaces { try socket.joinMulticastGroup(group, interface: interface) }
        return socket
    }

    public func send(_ bytes: [UInt8], to group: SocketAddress, interface: String) throws(SocketError) {
        // One datagram at a time: the transport that owns this link is an actor.
        try sender.setMulticastInterface(interface)
        try sender.send(bytes, to: group)
    }
}
