import MatterMessaging

// Matter Core §8.5 Subscribe Interaction, publisher side: what the server keeps for one subscription.
struct ServedSubscription: Sendable {
    enum Phase: Sendable {
        /// The priming report is going out on the subscriber's exchange.
        case priming(ExchangeHandle)
        /// Established, no report under way.
        case idle
        /// A report waits for the driver to open its exchange (`reportExchangeOpened`); these chunks follow the first.
        case awaitingExchange(remaining: [[UInt8]], deadline: Instant)
        /// A report is going out on this exchange.
        case reporting(ExchangeHandle)
    }

    let id: UInt32
    let session: SessionHandle
    let context: AccessContext
    let attributePaths: [AttributePathIB]
    let eventPaths: [EventPathIB]
    let isFabricFiltered: Bool
    let minInterval: Duration
    let maxInterval: Duration
    var phase: Phase
    var lastReport: Instant
    /// Attributes changed since the last report.
    var dirty: Set<ConcreteAttributePath> = []
    /// The first event number not yet reported.
    var nextEventNumber: UInt64

    /// When the next report may go out once something changed.
    var minimumReportTime: Instant { lastReport + minInterval }

    /// When an empty report is due if nothing changed: shortly before the max interval ends.
    var keepAliveTime: Instant {
        lastReport + (maxInterval - min(InteractionTiming.keepAliveLead, maxInterval / 2))
    }

    /// Whether a change at this path is one the subscriber asked for.
    func covers(_ path: ConcreteAttributePath) -> Bool {
        attributePaths.contains { request in
            (request.endpoint ?? path.endpoint) == path.endpoint && (request.cluster ?? path.cluster) == path.cluster
                && (request.attribute ?? path.attribute) == path.attribute
        }
    }
}
