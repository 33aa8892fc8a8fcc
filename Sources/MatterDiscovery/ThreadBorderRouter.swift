/// A Thread Border Router as its border agent advertises itself (Thread 1.3 §8.4.4.1, `_meshcop._udp`): where it is,
/// and its TXT record's keys (values as sent; several are binary, not text).
public struct ThreadBorderRouter: Hashable, Sendable {
    public let instanceName: String
    public let hostName: DNSName
    public let port: UInt16
    public let ipv4Addresses: [IPv4Address]
    public let ipv6Addresses: [IPv6Address]
    public let txt: [TXTEntry]

    public init(
        instanceName: String, hostName: DNSName, port: UInt16, ipv4Addresses: [IPv4Address],
        ipv6Addresses: [IPv6Address], txt: [TXTEntry]
    ) {
        self.instanceName = instanceName
        self.hostName = hostName
        self.port = port
        self.ipv4Addresses = ipv4Addresses
        self.ipv6Addresses = ipv6Addresses
        self.txt = txt
    }

    private func bytes(_ key: String) -> [UInt8]? { txt.first { $0.key == key }?.bytes }

    private func text(_ key: String) -> String? {
        bytes(key).flatMap { String(validating: $0, as: UTF8.self) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `xa`: the border agent's 64-bit extended (MAC) address, binary.
    public var extendedAddress: UInt64? { Self.integer(bytes("xa"), length: 8) }
    /// `xp`: the network's Extended PAN ID, binary.
    public var extendedPANID: UInt64? { Self.integer(bytes("xp"), length: 8) }
    /// `nn`: the network's name.
    public var networkName: String? { text("nn") }
    /// `vn` and `mn`: the vendor's and the model's names.
    public var vendorName: String? { text("vn") }
    public var modelName: String? { text("mn") }
    /// `tv`: the Thread version ("1.3.0").
    public var threadVersion: String? { text("tv") }
    /// `sb`, `at`, `pt`, `dd`: the state bitmap, active timestamp, partition ID and border agent ID, binary.
    public var stateBitmap: [UInt8]? { bytes("sb") }
    public var activeTimestamp: [UInt8]? { bytes("at") }
    public var partitionID: [UInt8]? { bytes("pt") }
    public var borderAgentID: [UInt8]? { bytes("dd") }
    /// `dn`: the Thread domain's name.
    public var domainName: String? { text("dn") }

    private static func integer(_ bytes: [UInt8]?, length: Int) -> UInt64? {
        guard let bytes, bytes.count == length else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
