import Foundation
import Synchronization

/// Wrong tokens by the host they came from (`SocketAddress.hostPrefix`), counted alike on every route that takes the
/// token — the dashboard's sign-in, `/info`, `/ws`, `/ble`, uploads — so no route lets a guesser try more than another.
/// A host past the limit is refused (429) on all of them, the right token too, until its window ends.
final class WrongTokens: Sendable {
    /// Wrong tokens a host may present in a window before it is refused for the rest of it: a person mistyping gets
    /// five tries a minute, and so does a guesser (a 16-character token is far beyond that).
    static let limit = 5
    static let window: TimeInterval = 60
    /// Hosts counted at once; past it the oldest window is forgotten (a flood of addresses cannot grow the hub's
    /// memory).
    static let hosts = 256

    private let wrong = Mutex<[[UInt8]: (count: Int, since: Date)]>([:])

    /// Whether `host` has presented `limit` wrong tokens within the window.
    func isRefused(_ host: [UInt8], now: Date = Date()) -> Bool {
        wrong.withLock { wrong in
            wrong = wrong.filter { now.timeIntervalSince($0.value.since) < Self.window }
            return (wrong[host]?.count ?? 0) >= Self.limit
        }
    }

    /// `host` presented a wrong token.
    func record(_ host: [UInt8], now: Date = Date()) {
        wrong.withLock { wrong in
            wrong[host, default: (0, now)].count += 1
            while wrong.count > Self.hosts, let oldest = wrong.min(by: { $0.value.since < $1.value.since }) {
                wrong.removeValue(forKey: oldest.key)
            }
        }
    }

    /// What a refused host is told.
    static let refusal = "Too many wrong tokens from here: wait a minute, then try again."
}
