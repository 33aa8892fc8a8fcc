// Matter Core §4.12.8 Message Reliability Protocol parameters and constants
/// The fixed numbers of MRP and the exchange layer, each with the reason it has its value.
public enum ReliableMessagingConstants {
    /// MRP_BACKOFF_BASE: each retransmission after the threshold waits 1.6 times longer, so a congested link
    /// is given room instead of being flooded.
    public static let backoffBase = 1.6
    /// MRP_BACKOFF_JITTER: up to 25% random extra wait, so nodes that lost packets together do not retry together.
    public static let backoffJitter = 0.25
    /// MRP_BACKOFF_MARGIN: 10% on top of the peer's advertised interval, for the peer's processing time.
    public static let backoffMargin = 1.1
    /// MRP_BACKOFF_THRESHOLD: the first retransmission waits as long as the first transmission did; growth starts after.
    public static let backoffThreshold = 1
    /// MRP_MAX_TRANSMISSIONS: the first transmission plus four retransmissions, then the exchange fails.
    public static let maximumTransmissions = 5
    /// MRP_STANDALONE_ACK_TIMEOUT: how long a received reliable message waits for an outgoing message on its
    /// exchange to carry its acknowledgement, before a standalone acknowledgement goes out. Well below the
    /// peer's shortest retransmission timeout (300 ms × 1.1), so the peer rarely retransmits needlessly.
    public static let standaloneAckTimeout = Duration.milliseconds(200)

    /// SESSION_IDLE_INTERVAL default: what a peer that advertises nothing (CircuitMatter) is assumed to need.
    public static let defaultIdleInterval = Duration.milliseconds(500)
    /// SESSION_ACTIVE_INTERVAL default.
    public static let defaultActiveInterval = Duration.milliseconds(300)
    /// SESSION_ACTIVE_THRESHOLD default: a peer heard from within the last 4 s is taken to be awake.
    public static let defaultActiveThreshold = Duration.seconds(4)
}
