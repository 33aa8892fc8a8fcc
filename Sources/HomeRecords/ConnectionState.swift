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
    /// A Long Idle Time device the hub is the check-in client of, out of reach since `since` as it sleeps by design:
    /// reachable again when it checks in, which it promised by `checkInBy`; offline only once that has passed.
    case asleep(since: Date, checkInBy: Date)

    /// Whether the node counts as reachable: online, or asleep by design within its promise (a Matter-server client's
    /// `available`, the hub's count of nodes online).
    public var isReachable: Bool {
        switch self {
        case .online, .asleep: true
        case .connecting, .offline: false
        }
    }

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .online: "online"
        case .offline(_, let reason): "offline (\(reason))"
        case .asleep(_, let checkInBy): "asleep (checks in by \(checkInBy.formatted(.iso8601)))"
        }
    }
}
