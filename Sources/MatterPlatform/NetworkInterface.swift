import Glibc

/// Network interfaces, always named by the caller: nothing here picks interfaces on its own.
public enum NetworkInterface {
    /// The kernel's index for an interface name (`lo` is usually 1).
    public static func index(named name: String) throws(SocketError) -> UInt32 {
        let index = if_nametoindex(name)
        guard index != 0 else { throw .unknownInterface(name) }
        return index
    }

    /// Whether the interface has any IPv6 address, so IPv6 multicast can be tried on it.
    public static func hasIPv6Address(named name: String) -> Bool {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return false }
        defer { freeifaddrs(list) }
        var current: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = current {
            if let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET6,
               let entryName = entry.pointee.ifa_name, String(cString: entryName) == name {
                return true
            }
            current = entry.pointee.ifa_next
        }
        return false
    }
}
