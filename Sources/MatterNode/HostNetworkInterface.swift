import Glibc
import MatterDataModel

// Matter Core §11.12.6.1 NetworkInterface: one interface of the host, as General Diagnostics lists it.
public struct HostNetworkInterface: Hashable, Sendable {
    public var name: String
    public var isUp: Bool
    public var hardwareAddress: [UInt8]
    public var ipv4Addresses: [[UInt8]]
    public var ipv6Addresses: [[UInt8]]

    public init(name: String, isUp: Bool, hardwareAddress: [UInt8], ipv4Addresses: [[UInt8]], ipv6Addresses: [[UInt8]])
    {
        self.name = name
        self.isUp = isUp
        self.hardwareAddress = hardwareAddress
        self.ipv4Addresses = ipv4Addresses
        self.ipv6Addresses = ipv6Addresses
    }

    /// Every interface of the host with its addresses (getifaddrs); the loopback one reports no hardware address.
    public static func current() -> [HostNetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var byName: [String: HostNetworkInterface] = [:]
        var order: [String] = []
        var current: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = current {
            current = entry.pointee.ifa_next
            guard let cName = entry.pointee.ifa_name else { continue }
            let name = String(cString: cName)
            if byName[name] == nil {
                order.append(name)
                byName[name] = HostNetworkInterface(
                    name: name, isUp: entry.pointee.ifa_flags & UInt32(IFF_UP) != 0,
                    hardwareAddress: [], ipv4Addresses: [], ipv6Addresses: [])
            }
            guard let address = entry.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let raw = UnsafeRawPointer(address).load(as: sockaddr_in.self)
                byName[name]?.ipv4Addresses.append(withUnsafeBytes(of: raw.sin_addr) { Array($0) })
            case AF_INET6:
                let raw = UnsafeRawPointer(address).load(as: sockaddr_in6.self)
                byName[name]?.ipv6Addresses.append(withUnsafeBytes(of: raw.sin6_addr) { Array($0) })
            case AF_PACKET:
                // struct sockaddr_ll (netpacket/packet.h, not exported to Swift): sll_halen at offset 11, sll_addr[8] at 12.
                let raw = UnsafeRawPointer(address)
                let length = min(Int(raw.load(fromByteOffset: 11, as: UInt8.self)), 8)
                let bytes = (0..<length).map { raw.load(fromByteOffset: 12 + $0, as: UInt8.self) }
                if bytes.contains(where: { $0 != 0 }) { byName[name]?.hardwareAddress = bytes }
            default:
                continue
            }
        }
        return order.compactMap { byName[$0] }
    }

    var generalDiagnosticsValue: GeneralDiagnosticsCluster.NetworkInterface {
        GeneralDiagnosticsCluster.NetworkInterface(
            name: name, isOperational: isUp, offPremiseServicesReachableIPv4: .null,
            offPremiseServicesReachableIPv6: .null,
            hardwareAddress: hardwareAddress, iPv4Addresses: ipv4Addresses, iPv6Addresses: ipv6Addresses,
            type: hardwareAddress.isEmpty ? .unspecified : .ethernet)
    }
}
