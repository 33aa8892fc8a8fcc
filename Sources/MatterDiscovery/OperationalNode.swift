// Matter Core §4.3.2 Operational Discovery: one `_matter._tcp` instance, resolved. TXT keys are
// optional: some devices publish no TXT at all, and then the MRP defaults of §4.12.8 apply.
public struct OperationalNode: Hashable, Sendable {
    public var peerID: OperationalPeerID
    public var hostName: DNSName
    public var port: UInt16
    public var ipv4Addresses: [IPv4Address]
    public var ipv6Addresses: [IPv6Address]
    public var txt: MatterTXTRecord

    public init(
        peerID: OperationalPeerID, hostName: DNSName, port: UInt16, ipv4Addresses: [IPv4Address],
        ipv6Addresses: [IPv6Address], txt: MatterTXTRecord
    ) {
        self.peerID = peerID
        self.hostName = hostName
        self.port = port
        self.ipv4Addresses = ipv4Addresses
        self.ipv6Addresses = ipv6Addresses
        self.txt = txt
    }
}
