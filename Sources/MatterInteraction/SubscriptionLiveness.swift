import MatterMessaging

// Matter Core §8.5 Subscribe Interaction, liveness: the publisher reports at least every max interval (an empty
// report when nothing changed), so a subscription is lost when nothing arrived for the max interval plus the time
// the peer's reliable messaging may take to deliver that report (its MRP retransmissions).
/// The liveness deadline of one subscription, on the driver's clock; it never reads a clock itself.
public struct SubscriptionLiveness: Sendable {
    public typealias Moment = Instant

    public enum Status: Hashable, Sendable {
        /// A report is due by this deadline.
        case alive(until: Moment)
        /// Nothing arrived by the deadline.
        case lost
    }

    public let maxInterval: Duration
    /// The time the peer's MRP may spend retransmitting one report (its retransmission timeouts summed).
    public let retransmissionAllowance: Duration
    public private(set) var lastReport: Moment

    /// Starts at the SubscribeResponse, which counts as the first report.
    public init(maxInterval: Duration, retransmissionAllowance: Duration, establishedAt moment: Moment) {
        self.maxInterval = maxInterval
        self.retransmissionAllowance = retransmissionAllowance
        self.lastReport = moment
    }

    /// lastReport + maxInterval + retransmissionAllowance.
    public var deadline: Moment {
        lastReport.advanced(by: maxInterval + retransmissionAllowance)
    }

    /// Any report for the subscription, keep-alives included; a moment older than the last one changes nothing.
    public mutating func reportReceived(at moment: Moment) {
        lastReport = max(lastReport, moment)
    }

    /// Lost only once `now` is past the deadline; at the deadline itself the report may still be arriving.
    public func check(now: Moment) -> Status {
        now > deadline ? .lost : .alive(until: deadline)
    }
}
