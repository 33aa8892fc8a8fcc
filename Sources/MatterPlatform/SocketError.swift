import Glibc

/// A socket call that failed, with the system's own words for why.
public enum SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `operation` names the call and its subject ("bind to 0.0.0.0:5353"); `code` is errno.
    case system(operation: String, code: Int32)
    case unknownInterface(String)
    case addressFamilyMismatch(SocketAddress, socket: String)
    /// A Unix socket's path is longer than `sun_path` holds.
    case pathTooLong(String, limit: Int)

    public var description: String {
        switch self {
        case .system(let operation, let code):
            "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .unknownInterface(let name):
            "no network interface named '\(name)'"
        case .addressFamilyMismatch(let address, let socket):
            "address \(address) does not fit an \(socket) socket"
        case .pathTooLong(let path, let limit):
            "the socket path \(path) is longer than the \(limit) bytes a Unix socket's path may be"
        }
    }

    /// The error for the call that just failed.
    static func lastError(_ operation: String) -> SocketError {
        .system(operation: operation, code: errno)
    }
}
