import Glibc
import MatterDiscovery

/// An IP address and UDP port, printed the usual way: `127.0.0.1:5353`, `[::1]:5540`, `[fe80::1%2]:5353`.
public enum SocketAddress: Hashable, Sendable, Codable, CustomStringConvertible {
    case ipv4(IPv4Address, port: UInt16)
    /// `scopeID` is the interface index a link-local or multicast address belongs to (0: none).
    case ipv6(IPv6Address, port: UInt16, scopeID: UInt32 = 0)

    public var port: UInt16 {
        switch self {
        case .ipv4(_, let port), .ipv6(_, let port, _): port
        }
    }

    public var description: String {
        switch self {
        case .ipv4(let address, let port): "\(address):\(port)"
        case .ipv6(let address, let port, let scopeID): "[\(address)\(scopeID == 0 ? "" : "%\(scopeID)")]:\(port)"
        }
    }

    /// The address without its port ("fd00::1", "192.168.1.5"), as python-matter-server names a node's addresses.
    public var host: String {
        switch self {
        case .ipv4(let address, _): "\(address)"
        case .ipv6(let address, _, let scopeID): "\(address)\(scopeID == 0 ? "" : "%\(scopeID)")"
        }
    }

    /// Calls `body` with this address as a C `sockaddr` and its length.
    /// 127.0.0.0/8 or ::1: reachable from this machine only.
    public var isLoopback: Bool {
        switch self {
        case .ipv4(let address, _): address.bytes[0] == 127
        case .ipv6(let address, _, _): address.bytes == Array(repeating: 0, count: 15) + [1]
        }
    }

    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch self {
        case .ipv4(let address, let port):
            var storage = sockaddr_in()
            storage.sin_family = sa_family_t(AF_INET)
            storage.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6(let address, let port, let scopeID):
            var storage = sockaddr_in6()
            storage.sin6_family = sa_family_t(AF_INET6)
            storage.sin6_port = port.bigEndian
            storage.sin6_scope_id = scopeID
            withUnsafeMutableBytes(of: &storage.sin6_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// What names one host among a listener's peers: an IPv4 address whole, an IPv6 address's first 64 bits (a host
    /// picks its own interface identifiers, as many as it likes, so anything finer is its choice, not a limit).
    public var hostPrefix: [UInt8] {
        switch self {
        case .ipv4(let address, _): [4] + address.bytes
        case .ipv6(let address, _, _): [6] + address.bytes.prefix(8)
        }
    }

    /// Reads an address the kernel filled in; nil for a family other than IPv4 and IPv6.
    init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let raw = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            guard let address = IPv4Address(bytes: withUnsafeBytes(of: raw.sin_addr) { Array($0) }) else { return nil }
            self = .ipv4(address, port: UInt16(bigEndian: raw.sin_port))
        case AF_INET6:
            let raw = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            guard let address = IPv6Address(bytes: withUnsafeBytes(of: raw.sin6_addr) { Array($0) }) else { return nil }
            self = .ipv6(address, port: UInt16(bigEndian: raw.sin6_port), scopeID: raw.sin6_scope_id)
        default:
            return nil
        }
    }
}
