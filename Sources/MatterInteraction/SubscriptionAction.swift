/// What a subscription asks its driver to do next. A `.send` answers the message just received, on its exchange.
public enum SubscriptionAction: Hashable, Sendable {
    /// Send this Interaction Model message.
    case send(InteractionModelOpcode, [UInt8])
    /// The publisher accepted: its subscription ID, its final maximum interval, and the priming report.
    case established(subscriptionID: UInt32, maxInterval: Duration, priming: InteractionReport)
    /// A later report (empty for a keep-alive); it also proves the subscription alive.
    case report(InteractionReport)
    /// The subscription failed or ended; resubscribe after `ResubscriptionBackoff`'s delay.
    case failed(InteractionError)

    static func status(_ status: InteractionModelStatus) -> Self {
        .send(.statusResponse, StatusResponseMessage(status: status).encoded())
    }
}
