// Matter Core §4.3.1 (commissionable) and §4.3.2 (operational) DNS-SD service names.
public enum MatterServiceName {
    /// §4.3.1.1: commissionable nodes.
    public static let commissionable: DNSName = "_matterc._udp.local"
    /// §4.3.2.1: operational nodes.
    public static let operational: DNSName = "_matter._tcp.local"
    /// Thread's border agents (Thread 1.3 §8.4.4.1: MeshCoP), which Thread Border Routers advertise.
    public static let threadBorderAgent: DNSName = "_meshcop._udp.local"

    /// RFC 6763 §9: the name whose PTR records list every service type a host offers.
    public static let serviceTypeEnumeration: DNSName = "_services._dns-sd._udp.local"

    /// §4.3.2.4: `_I<compressed fabric ID>._sub._matter._tcp.local`, all nodes of one fabric.
    public static func operationalFabricSubtype(compressedFabricID: UInt64) -> DNSName {
        operational.prepending("_sub").prepending("_I" + hex16(compressedFabricID))
    }

    /// Sixteen uppercase hex digits, as the operational names use.
    static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
