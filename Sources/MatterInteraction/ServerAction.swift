import MatterMessaging

/// What the `InteractionServer` asks its driver to do, in order.
public enum ServerAction: Hashable, Sendable {
    /// Send this Interaction Model message on this exchange.
    case send(InteractionModelOpcode, [UInt8], on: ExchangeHandle)
    /// The interaction on this exchange is over: close it.
    case closeExchange(ExchangeHandle)
    /// Open an exchange on this session, tell the server with `reportExchangeOpened(_:subscriptionID:)`, then
    /// send this (the first chunk of a subscription report) on it. If it cannot be opened, call
    /// `cancelSubscription(_:)`.
    case openExchangeAndSend(SessionHandle, InteractionModelOpcode, [UInt8], subscriptionID: UInt32)
}
