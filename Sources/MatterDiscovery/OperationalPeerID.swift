// Matter Core §4.3.2.2 Operational Instance Name: `<compressed fabric ID>-<node ID>`, 16 uppercase hex digits each.
public struct OperationalPeerID: Hashable, Sendable, CustomStringConvertible {
    public var compressedFabricID: UInt64
    public var nodeID: UInt64

    public init(compressedFabricID: UInt64, nodeID: UInt64) {
        self.compressedFabricID = compressedFabricID
        self.nodeID = nodeID
    }

    /// Reads an instance name; hex digits of either case are accepted, as DNS names compare case-insensitively.
    public init?(instanceName: String) {
        let parts = instanceName.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 16 && $0.allSatisfy(\.isHexDigit) }),
            let fabric = UInt64(parts[0], radix: 16), let node = UInt64(parts[1], radix: 16)
        else { return nil }
        compressedFabricID = fabric
        nodeID = node
    }

    public var instanceName: String {
        MatterServiceName.hex16(compressedFabricID) + "-" + MatterServiceName.hex16(nodeID)
    }

    /// `<instance>._matter._tcp.local`, the name that owns the node's SRV and TXT records.
    public var serviceInstanceName: DNSName { MatterServiceName.operational.prepending(instanceName) }

    public var description: String { instanceName }
}
