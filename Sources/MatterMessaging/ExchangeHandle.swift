// Matter Core §4.10.2 Exchange ID, §4.10.4 exchange matching (exchange ID, role, session)
/// Names one exchange: its ID, our role in it, and the session it runs on.
public struct ExchangeHandle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public enum Role: Hashable, Sendable {
        /// We sent its first message; our messages carry the I flag.
        case initiator
        /// The peer sent its first message.
        case responder
    }

    public let session: SessionHandle
    public let exchangeID: UInt16
    public let role: Role

    public init(session: SessionHandle, exchangeID: UInt16, role: Role) {
        self.session = session
        self.exchangeID = exchangeID
        self.role = role
    }

    public static func < (lhs: ExchangeHandle, rhs: ExchangeHandle) -> Bool {
        (lhs.session.rawValue, lhs.exchangeID, lhs.role == .initiator ? 0 : 1)
            < (rhs.session.rawValue, rhs.exchangeID, rhs.role == .initiator ? 0 : 1)
    }

    public var description: String {
        "exchange 0x\(String(exchangeID, radix: 16, uppercase: true)) "
            + "(\(role == .initiator ? "initiator" : "responder")) on \(session)"
    }
}
