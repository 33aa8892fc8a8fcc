// Matter Core §4.12.8 and §2.5.6.1: SESSION_IDLE_INTERVAL, SESSION_ACTIVE_INTERVAL, SESSION_ACTIVE_THRESHOLD
/// The retransmission intervals a peer asks for, from its session parameters (PASE/CASE) or DNS-SD record
/// (SII, SAI, SAT keys); the defaults apply when it advertises none.
public struct MRPParameters: Sendable, Hashable, Codable {
    /// The base retransmission interval while the peer is idle (may be asleep).
    public var idleInterval: Duration
    /// The base retransmission interval while the peer is active.
    public var activeInterval: Duration
    /// How long after the peer's last message it is still considered active.
    public var activeThreshold: Duration

    public init(
        idleInterval: Duration = ReliableMessagingConstants.defaultIdleInterval,
        activeInterval: Duration = ReliableMessagingConstants.defaultActiveInterval,
        activeThreshold: Duration = ReliableMessagingConstants.defaultActiveThreshold
    ) {
        self.idleInterval = idleInterval
        self.activeInterval = activeInterval
        self.activeThreshold = activeThreshold
    }

    public static let `default` = MRPParameters()

    /// §4.12.2.1: the active interval if a message arrived from the peer within its active threshold, else idle.
    public func baseInterval(lastReceived: Instant?, now: Instant) -> Duration {
        guard let lastReceived, lastReceived.duration(to: now) <= activeThreshold else { return idleInterval }
        return activeInterval
    }
}
