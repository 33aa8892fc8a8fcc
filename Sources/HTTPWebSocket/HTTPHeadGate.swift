import MatterTime

/// Who may hold a connection open before its request head is whole: a connection is admitted when its peer and the
/// listener have room (`HTTPWebSocketLimits.headsWaitingPerPeer`, `.headsWaitingInAll`), and it is due to be closed
/// once `HTTPWebSocketLimits.requestHeadTime` has passed without its head. A connection whose head is whole (a
/// WebSocket, a signed-in page's request) leaves the gate for good: nothing here ever touches it again.
///
/// A value with no I/O: the listener admits each accepted connection, says when its head ends or the connection
/// closes, and closes what `expired(at:)` returns at the `nextDeadline` it arms a timer for.
public struct HTTPHeadGate<Connection: Hashable & Sendable, Peer: Hashable & Sendable>: Sendable {
    public struct Limits: Sendable {
        public var headTime: Duration
        public var perPeer: Int
        public var inAll: Int

        public init(
            headTime: Duration = HTTPWebSocketLimits.requestHeadTime,
            perPeer: Int = HTTPWebSocketLimits.headsWaitingPerPeer, inAll: Int = HTTPWebSocketLimits.headsWaitingInAll
        ) {
            self.headTime = headTime
            self.perPeer = perPeer
            self.inAll = inAll
        }
    }

    public enum Admission: Sendable, Hashable {
        case admitted(until: Instant)
        /// Refused: what the connection is told (503) before it is closed.
        case refused(HTTPError)
    }

    private struct Waiting: Sendable {
        let peer: Peer
        let deadline: Instant
    }

    public let limits: Limits
    private var waiting: [Connection: Waiting] = [:]
    private var waitingPerPeer: [Peer: Int] = [:]

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Connections still sending their head.
    public var count: Int { waiting.count }

    /// The earliest moment a waiting connection runs out of time.
    public var nextDeadline: Instant? { waiting.values.lazy.map(\.deadline).min() }

    /// A connection just accepted from `peer`.
    public mutating func admit(_ connection: Connection, from peer: Peer, at now: Instant) -> Admission {
        if waitingPerPeer[peer, default: 0] >= limits.perPeer {
            return .refused(
                HTTPError(
                    503, "this address already has \(limits.perPeer) connections that have not sent their request"))
        }
        if waiting.count >= limits.inAll {
            return .refused(HTTPError(503, "too many connections that have not sent their request: try again soon"))
        }
        let deadline = now + limits.headTime
        waiting[connection] = Waiting(peer: peer, deadline: deadline)
        waitingPerPeer[peer, default: 0] += 1
        return .admitted(until: deadline)
    }

    /// The connection's head is whole, or it closed: it leaves the gate (again does nothing).
    public mutating func leave(_ connection: Connection) {
        guard let left = waiting.removeValue(forKey: connection) else { return }
        let remaining = waitingPerPeer[left.peer, default: 1] - 1
        waitingPerPeer[left.peer] = remaining > 0 ? remaining : nil
    }

    /// The connections out of time at `now`, which leave the gate: the listener answers each 408 and closes it.
    public mutating func expired(at now: Instant) -> [Connection] {
        let late = waiting.filter { $0.value.deadline <= now }.map(\.key)
        for connection in late { leave(connection) }
        return late
    }

    /// What a connection out of time is told before it is closed.
    public var timeoutError: HTTPError {
        HTTPError(408, "the request head did not arrive within \(limits.headTime)")
    }
}
