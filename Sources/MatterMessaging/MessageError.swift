import MatterCrypto

/// Everything that can go wrong while reading, writing, sealing or counting Matter messages.
public enum MessageError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The input ended before a field could be read.
    case truncated(needed: Int, offset: Int, available: Int)
    /// The message flags carry a header version other than the one this codec speaks.
    case unsupportedVersion(UInt8)
    /// DSIZ value 3 is reserved by the spec.
    case reservedDestinationSize
    /// Session type values 2 and 3 are reserved by the spec.
    case reservedSessionType(UInt8)
    /// The P flag is set on a unicast message; privacy on unicast sessions (Matter Core §4.9.3) is not implemented.
    case privacyNotSupported
    /// A group message must name its sender in the Source Node ID field.
    case groupMessageWithoutSourceNodeID
    /// A group message must carry a destination (a group ID, or a node ID for control messages).
    case groupMessageWithoutDestination
    /// Only group messages may carry a destination group ID.
    case groupDestinationOnUnicastSession
    /// On a group session a destination node ID is only allowed for control messages (MCSP).
    case nodeDestinationOnGroupDataMessage
    /// A length-prefixed extension block is longer than its 16-bit length field can express.
    case extensionTooLong(length: Int)
    /// A plain (unencrypted) encode or decode was asked for a message on a secured session.
    case securedSessionNeedsKey(sessionID: UInt16)
    /// Encryption or decryption was asked for a message on the unsecured session.
    case unsecuredSessionHasNoEncryption
    /// The message integrity check did not verify.
    case authenticationFailed
    /// The encryption layer refused its input for a reason other than a bad MIC.
    case encryptionFailed(CryptoError)
    /// A secure session counter reached its end; the session must be re-established.
    case counterExhausted

    public var description: String {
        switch self {
        case let .truncated(needed, offset, available):
            return "truncated: needed \(needed) bytes at offset \(offset), \(available) left"
        case let .unsupportedVersion(version):
            return "unsupported message header version \(version) (only version 0 is defined)"
        case .reservedDestinationSize:
            return "reserved destination size (DSIZ = 3) in message flags"
        case let .reservedSessionType(value):
            return "reserved session type \(value) in security flags"
        case .privacyNotSupported:
            return "privacy-obfuscated unicast messages are not supported"
        case .groupMessageWithoutSourceNodeID:
            return "group message has no source node ID (S flag clear)"
        case .groupMessageWithoutDestination:
            return "group message has no destination (DSIZ = 0)"
        case .groupDestinationOnUnicastSession:
            return "destination group ID on a unicast session"
        case .nodeDestinationOnGroupDataMessage:
            return "destination node ID on a group session is only allowed for control messages"
        case let .extensionTooLong(length):
            return "extension of \(length) bytes does not fit a 16-bit length field"
        case let .securedSessionNeedsKey(sessionID):
            return "message on secured session \(sessionID) needs the session key to be encoded or decoded"
        case .unsecuredSessionHasNoEncryption:
            return "messages on the unsecured session (unicast, session ID 0) are not encrypted"
        case .authenticationFailed:
            return "message authentication failed: the MIC does not match (wrong key or nonce, or tampered bytes)"
        case let .encryptionFailed(error):
            return "message encryption failed: \(error)"
        case .counterExhausted:
            return "message counter exhausted: the secure session must be re-established"
        }
    }
}
