/// What a read, write or invoke transaction asks its driver to do next. The driver carries the bytes on the
/// interaction's exchange (a reply goes on the exchange of the message it answers) and drops the transaction after
/// `.completed` or `.failed`.
public enum InteractionAction<Result: Sendable>: Sendable {
    /// Send this Interaction Model message.
    case send(InteractionModelOpcode, [UInt8])
    /// The interaction succeeded with this result; any `.send` before it must go out first.
    case completed(Result)
    /// The interaction failed; any `.send` before it (telling the peer) must go out first.
    case failed(InteractionError)
}

extension InteractionAction: Equatable where Result: Equatable {}
extension InteractionAction: Hashable where Result: Hashable {}

extension InteractionAction {
    /// A StatusResponse with this status.
    static func status(_ status: InteractionModelStatus) -> Self {
        .send(.statusResponse, StatusResponseMessage(status: status).encoded())
    }
}
