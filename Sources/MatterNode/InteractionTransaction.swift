import MatterInteraction

/// The shape shared by the read, write and invoke transactions of MatterInteraction, so that one driver carries
/// them all over an exchange.
protocol InteractionTransaction: Sendable {
    associatedtype Result: Sendable
    mutating func start() -> InteractionAction<Result>
    mutating func receive(opcode: UInt8, payload: [UInt8]) -> [InteractionAction<Result>]
}

extension ReadTransaction: InteractionTransaction {}
extension WriteTransaction: InteractionTransaction {}
extension InvokeTransaction: InteractionTransaction {}
