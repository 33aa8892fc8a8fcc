import MatterMessaging

/// What a PASE or CASE state machine asks its driver to do next.
public enum SessionEstablishmentAction: Sendable {
    /// Send this secure-channel message on the establishment exchange.
    case send(SecureChannelOpcode, [UInt8])
    /// The session is ready; the exchange is done.
    case established(EstablishedSession)
    /// Establishment failed; any message to send first comes as a `.send` before this action.
    case failed(SecureChannelError)
}

/// The initiating side of PASE or CASE, as the driver that carries its messages sees it.
public protocol SessionEstablishmentInitiator: Sendable {
    mutating func start() -> SessionEstablishmentAction
    mutating func receive(opcode: UInt8, payload: [UInt8]) -> [SessionEstablishmentAction]
}

extension PASEInitiator: SessionEstablishmentInitiator {}
extension CASEInitiator: SessionEstablishmentInitiator {}
