import MatterInteraction

/// A live subscription: the priming report, then every later report (empty ones are keep-alives) as an
/// `AsyncSequence`. The sequence finishes with an `InteractionClientError` when the subscription is lost (no report
/// within the max interval plus the device's retransmission time) and without one after `cancel()`.
public struct Subscription: AsyncSequence, Sendable {
    public typealias Element = InteractionReport

    public let subscriptionID: UInt32
    /// The max interval the device chose.
    public let maxInterval: Duration
    /// The report that primed the subscription: the current value of every subscribed path. A holder that keeps the
    /// subscription for long takes it (`takePriming()`), as a whole node's priming is tens of KiB.
    public private(set) var priming: InteractionReport
    let reports: AsyncThrowingStream<InteractionReport, any Error>
    let client: InteractionClient

    /// The priming report, which the subscription then no longer holds.
    public mutating func takePriming() -> InteractionReport {
        defer { priming = InteractionReport() }
        return priming
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<InteractionReport, any Error>.AsyncIterator {
        reports.makeAsyncIterator()
    }

    /// Stops routing this subscription's reports; the device's next report is answered INVALID_SUBSCRIPTION,
    /// which ends the subscription on its side (Matter Core §8.5.1).
    public func cancel() async {
        await client.endSubscription(subscriptionID, error: nil)
    }
}
