/// A message the exchange layer hands to the application, once, however often it arrived.
public enum ExchangeEvent: Sendable, Hashable {
    /// The peer opened an exchange with this message; we are its responder.
    case newExchange(ExchangeHandle, ExchangeMessage)
    /// A message on an exchange that was already open.
    case message(ExchangeHandle, ExchangeMessage)
}
