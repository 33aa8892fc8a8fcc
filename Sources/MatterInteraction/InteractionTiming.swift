/// Every timing of the interaction layer, with its reason. The layer reads no clock: these only shape the
/// deadlines and delays it hands to its driver.
public enum InteractionTiming {
    /// First resubscription delay ceiling: one second lets a device that merely rebooted come back quickly.
    public static let resubscribeBaseDelay: Duration = .seconds(1)

    /// Growth of the ceiling per failed attempt (base·1.5^attempt): gentler than doubling, so a device that is
    /// away for a minute is retried about nine times rather than six.
    public static let resubscribeGrowthFactor = 1.5

    /// Largest delay ceiling. connectedhomeip caps at about 92 minutes to spare battery devices; a home hub wants
    /// a device back within minutes after a power cut, and one attempt per node every five minutes is no load.
    public static let resubscribeMaximumDelay: Duration = .seconds(300)

    /// The delay is drawn uniformly from [fraction·ceiling, ceiling] so that many devices lost together (a power
    /// cut) do not all resubscribe in the same instant; connectedhomeip draws from [0.3·max, max] likewise.
    public static let resubscribeJitterFloor = 0.5

    /// How long the server waits for the StatusResponse to a chunk or report, or for the action after a
    /// TimedRequest, before it gives the interaction up (dropping a subscription whose report it was). Longer than
    /// MRP's whole retransmission schedule to an idle peer (about 10 s), so a slow but live peer is not dropped.
    public static let serverResponseTimeout: Duration = .seconds(30)

    /// How long before its max interval a subscription's keep-alive goes out (at most half the interval), so
    /// that it reaches the subscriber before its liveness check even when the first transmission is lost.
    public static let keepAliveLead: Duration = .seconds(1)
}
