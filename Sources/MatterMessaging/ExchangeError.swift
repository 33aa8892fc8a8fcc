/// Everything that can go wrong while sending, receiving or retransmitting on exchanges.
public enum ExchangeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The datagram could not be decoded, decrypted or encoded.
    case message(MessageError)
    /// A handle of a session this manager does not have (never had, or removed).
    case unknownSession(SessionHandle)
    /// A secured message names a session ID we did not hand out.
    case unknownSecureSessionID(UInt16)
    /// An unsecured message is addressed to an ephemeral node ID none of our sessions uses.
    case unknownEphemeralNodeID(UInt64)
    /// An unsecured message that neither opens an exchange nor belongs to a session we know.
    case unsolicitedUnsecuredMessage(sourceNodeID: UInt64?)
    /// Another secure session already uses this local session ID.
    case sessionIDInUse(UInt16)
    /// Every local session ID of the range is in use or reserved.
    case noFreeSessionID
    /// A handle of an exchange that is not open (never opened, closed or failed).
    case unknownExchange(ExchangeHandle)
    /// Every one of the 65 536 exchange IDs is open on this session with us as initiator.
    case noFreeExchangeID(SessionHandle)
    /// §4.12.5.1: an exchange has at most one reliable message awaiting acknowledgement.
    case previousMessageUnacknowledged(ExchangeHandle, opcode: UInt8)
    /// No acknowledgement came for a reliable message after every transmission MRP allows.
    case deliveryFailed(ExchangeHandle, protocolID: ProtocolID, opcode: UInt8, transmissions: Int)
    /// The message, sealed, is larger than the link to the session's peer carries (`LinkPeer.maximumMessageSize`).
    case messageTooLarge(ExchangeHandle, size: Int, limit: Int)

    public var description: String {
        switch self {
        case let .message(error):
            return "message error: \(error)"
        case let .unknownSession(session):
            return "unknown \(session)"
        case let .unknownSecureSessionID(sessionID):
            return "secured message for unknown session ID \(sessionID)"
        case let .unknownEphemeralNodeID(nodeID):
            return "unsecured message for unknown ephemeral node ID 0x\(String(nodeID, radix: 16, uppercase: true))"
        case let .unsolicitedUnsecuredMessage(sourceNodeID):
            let source = sourceNodeID.map { "node 0x" + String($0, radix: 16, uppercase: true) } ?? "no source node ID"
            return "unsecured message from \(source) neither opens an exchange nor belongs to a known session"
        case let .sessionIDInUse(sessionID):
            return "local session ID \(sessionID) is already in use"
        case .noFreeSessionID:
            return "every local session ID is in use"
        case let .unknownExchange(exchange):
            return "\(exchange) is not open"
        case let .noFreeExchangeID(session):
            return "no free exchange ID on \(session): all 65536 are open"
        case let .previousMessageUnacknowledged(exchange, opcode):
            return
                "\(exchange): cannot send opcode \(Self.hex(opcode)) reliably before the previous message is acknowledged"
        case let .deliveryFailed(exchange, protocolID, opcode, transmissions):
            return "\(exchange): no acknowledgement for \(protocolID) opcode \(Self.hex(opcode)) "
                + "after \(transmissions) transmissions"
        case let .messageTooLarge(exchange, size, limit):
            return "\(exchange): a message of \(size) bytes is larger than the link carries (\(limit) bytes)"
        }
    }

    private static func hex(_ opcode: UInt8) -> String {
        "0x" + (opcode < 0x10 ? "0" : "") + String(opcode, radix: 16, uppercase: true)
    }
}
