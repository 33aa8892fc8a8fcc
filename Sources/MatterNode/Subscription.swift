import MatterInteraction

/// An established subscription: its priming report; its later reports and its end go to the handler given to
/// `InteractionClient.subscribe`.
public struct Subscription: Sendable {
    public let subscriptionID: UInt32
    /// The max interval the device chose.
    public let maxInterval: Duration
    /// The report that primed the subscription: the current value of every subscribed path. A holder that keeps the
    /// subscription for long takes it (`takePriming()`), as a whole node's priming is tens of KiB.
    public private(set) var priming: InteractionReport
    let client: InteractionClient

    /// The priming report, which the subscription then no longer holds.
    public mutating func takePriming() -> InteractionReport {
        defer { priming = InteractionReport() }
        return priming
    }

    /// Stops routing this subscription's reports; the device's next report is answered INVALID_SUBSCRIPTION,
    /// which ends the subscription on its side (Matter Core §8.5.1). The handler hears nothing more.
    public func cancel() async {
        await client.cancelSubscription(subscriptionID)
    }
}
