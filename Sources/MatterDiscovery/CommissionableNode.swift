// Matter Core §4.3.1 Commissionable Node Discovery: one `_matterc._udp` instance, resolved.
public struct CommissionableNode: Hashable, Sendable {
    /// The instance label, 16 hex digits on a compliant device (§4.3.1.2).
    public var instanceName: String
    public var hostName: DNSName
    public var port: UInt16
    public var ipv4Addresses: [IPv4Address]
    public var ipv6Addresses: [IPv6Address]
    public var txt: MatterTXTRecord

    public init(
        instanceName: String, hostName: DNSName, port: UInt16, ipv4Addresses: [IPv4Address],
        ipv6Addresses: [IPv6Address], txt: MatterTXTRecord
    ) {
        self.instanceName = instanceName
        self.hostName = hostName
        self.port = port
        self.ipv4Addresses = ipv4Addresses
        self.ipv6Addresses = ipv6Addresses
        self.txt = txt
    }

    public var longDiscriminator: UInt16? { txt.longDiscriminator }
    /// The upper 4 bits of the discriminator, what an 11-digit manual code carries.
    public var shortDiscriminator: UInt8? { txt.longDiscriminator.map { UInt8($0 >> 8) } }
}
