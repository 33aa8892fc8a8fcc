import Foundation

/// Whether the hub hears a node (its live connection's state): online while its subscription is alive.
public enum ConnectionState: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The first session and subscription are being set up.
    case connecting
    /// The subscription is established and alive.
    case online
    /// Since the first failure after being online (or the first attempt failing), with its reason; the
    /// connection keeps retrying with backoff meanwhile.
    case offline(since: Date, reason: String)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .online: "online"
        case .offline(_, let reason): "offline (\(reason))"
        }
    }
}
