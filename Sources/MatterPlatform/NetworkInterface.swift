import Glibc
import MatterDiscovery

/// Network interfaces, always named by the caller: nothing here picks interfaces on its own.
public enum NetworkInterface {
    /// The kernel's index for an interface name (`lo` is usually 1).
    public static func index(named name: String) throws(SocketError) -> UInt32 {
        let index = if_nametoindex(name)
        guard index != 0 else { throw .unknownInterface(name) }
        return index
    }

    /// The interfaces that are administratively up (IFF_UP) and have at least one IPv4 or IPv6 address.
    public static func namesUpWithAddress() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var names = Set<String>()
        var current: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = current {
            current = entry.pointee.ifa_next
            guard entry.pointee.ifa_flags & UInt32(IFF_UP) != 0, let address = entry.pointee.ifa_addr,
                let name = entry.pointee.ifa_name,
                [AF_INET, AF_INET6].contains(Int32(address.pointee.sa_family))
            else { continue }
            names.insert(String(cString: name))
        }
        return names
    }

    /// Whether the interface has any IPv6 address, so IPv6 multicast can be tried on it.
    public static func hasIPv6Address(named name: String) -> Bool {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return false }
        defer { freeifaddrs(list) }
        var current: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = current {
            if let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET6,
                let entryName = entry.pointee.ifa_name, String(cString: entryName) == name
            {
                return true
            }
            current = entry.pointee.ifa_next
        }
        return false
    }

    /// Every IPv4 and IPv6 address of the interface, as a responder publishes them in A and AAAA records.
    public static func addresses(named name: String) throws(SocketError) -> (ipv4: [IPv4Address], ipv6: [IPv6Address]) {
        _ = try index(named: name)
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { throw .lastError("getifaddrs") }
        defer { freeifaddrs(list) }
        var ipv4: [IPv4Address] = [], ipv6: [IPv6Address] = []
        var current: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = current {
            current = entry.pointee.ifa_next
            guard let address = entry.pointee.ifa_addr, let entryName = entry.pointee.ifa_name,
                String(cString: entryName) == name
            else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let raw = UnsafeRawPointer(address).load(as: sockaddr_in.self)
                if let value = IPv4Address(bytes: withUnsafeBytes(of: raw.sin_addr) { Array($0) }) {
                    ipv4.append(value)
                }
            case AF_INET6:
                let raw = UnsafeRawPointer(address).load(as: sockaddr_in6.self)
                if let value = IPv6Address(bytes: withUnsafeBytes(of: raw.sin6_addr) { Array($0) }) {
                    ipv6.append(value)
                }
            default:
                continue
            }
        }
        return (ipv4, ipv6)
    }
}
