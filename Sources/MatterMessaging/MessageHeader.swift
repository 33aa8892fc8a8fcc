// Matter Core §4.4.1 Message Header
/// The unencrypted header in front of every Matter message; for secured messages its encoding is the
/// additional authenticated data of the AES-CCM seal.
public struct MessageHeader: Sendable, Hashable {
    // Matter Core §4.4.1.3 Security Flags: Session Type
    public enum SessionType: UInt8, Sendable, Hashable {
        case unicast = 0
        case group = 1
    }

    // Matter Core §4.4.1.1 Message Flags: DSIZ
    public enum Destination: Sendable, Hashable {
        case node(UInt64)
        case group(UInt16)
    }

    public var sessionID: UInt16
    public var sessionType: SessionType
    /// The C flag: the message belongs to the control-message counter domain (e.g. MCSP).
    public var isControlMessage: Bool
    /// The P flag (§4.9.3): on the wire, the counter, source and destination are hidden with the privacy key
    /// (`MessagePrivacy`); group messages only here.
    public var isPrivate: Bool
    public var messageCounter: UInt32
    /// Present when the S flag is set.
    public var sourceNodeID: UInt64?
    public var destination: Destination?
    /// The opaque message extensions block, present when the MX flag is set.
    public var messageExtensions: [UInt8]?

    public init(
        sessionID: UInt16,
        sessionType: SessionType = .unicast,
        isControlMessage: Bool = false,
        isPrivate: Bool = false,
        messageCounter: UInt32,
        sourceNodeID: UInt64? = nil,
        destination: Destination? = nil,
        messageExtensions: [UInt8]? = nil
    ) {
        self.sessionID = sessionID
        self.sessionType = sessionType
        self.isControlMessage = isControlMessage
        self.isPrivate = isPrivate
        self.messageCounter = messageCounter
        self.sourceNodeID = sourceNodeID
        self.destination = destination
        self.messageExtensions = messageExtensions
    }

    /// Matter Core §4.4.1.2: a unicast message on session 0 is unsecured; everything else is encrypted.
    public var isSecured: Bool {
        sessionType == .group || sessionID != MessagingConstants.unsecuredSessionID
    }

    /// The Security Flags byte as sent; it is also the first byte of the nonce.
    public var securityFlags: UInt8 {
        var flags = sessionType.rawValue
        if isPrivate { flags |= SecurityFlagBits.privacy }
        if isControlMessage { flags |= SecurityFlagBits.control }
        if messageExtensions != nil { flags |= SecurityFlagBits.messageExtensions }
        return flags
    }

    var messageFlags: UInt8 {
        var flags = MessagingConstants.headerVersion << MessageFlagBits.versionShift
        if sourceNodeID != nil { flags |= MessageFlagBits.sourceNodeIDPresent }
        switch destination {
        case nil: break
        case .node: flags |= MessageFlagBits.destinationNodeID
        case .group: flags |= MessageFlagBits.destinationGroupID
        }
        return flags
    }

    public func encode() throws(MessageError) -> [UInt8] {
        try validate()
        var bytes: [UInt8] = []
        bytes.append(messageFlags)
        bytes.appendLittleEndian(sessionID)
        bytes.append(securityFlags)
        bytes.appendLittleEndian(messageCounter)
        if let sourceNodeID { bytes.appendLittleEndian(sourceNodeID) }
        switch destination {
        case nil: break
        case let .node(nodeID): bytes.appendLittleEndian(nodeID)
        case let .group(groupID): bytes.appendLittleEndian(groupID)
        }
        if let messageExtensions { try bytes.appendLengthPrefixed(messageExtensions) }
        return bytes
    }

    /// Decodes the header at the start of `bytes`; `headerLength` is where the protocol header
    /// (or, for secured messages, the ciphertext) begins.
    public static func decode(_ bytes: [UInt8]) throws(MessageError) -> (header: MessageHeader, headerLength: Int) {
        var reader = ByteReader(bytes)
        let header = try decode(from: &reader)
        return (header, reader.offset)
    }

    static func decode(from reader: inout ByteReader) throws(MessageError) -> MessageHeader {
        let messageFlags = try reader.readInteger(UInt8.self)
        let version = messageFlags >> MessageFlagBits.versionShift
        guard version == MessagingConstants.headerVersion else { throw .unsupportedVersion(version) }
        let destinationSize = messageFlags & MessageFlagBits.destinationSizeMask
        guard destinationSize != MessageFlagBits.reservedDestinationSize else { throw .reservedDestinationSize }

        let sessionID = try reader.readInteger(UInt16.self)
        let securityFlags = try reader.readInteger(UInt8.self)
        let rawSessionType = securityFlags & SecurityFlagBits.sessionTypeMask
        guard let sessionType = SessionType(rawValue: rawSessionType) else {
            throw .reservedSessionType(rawSessionType)
        }
        let isPrivate = securityFlags & SecurityFlagBits.privacy != 0
        // Private unicast messages (§4.9.3 on a CASE session) are not taken; a private group message's hidden fields
        // are read here as they are on the wire, and revealed by the group layer, which holds the privacy keys.
        guard !isPrivate || sessionType == .group else { throw .privacyNotSupported }
        let messageCounter = try reader.readInteger(UInt32.self)

        var sourceNodeID: UInt64?
        if messageFlags & MessageFlagBits.sourceNodeIDPresent != 0 {
            sourceNodeID = try reader.readInteger(UInt64.self)
        }
        var destination: Destination?
        switch destinationSize {
        case MessageFlagBits.destinationNodeID: destination = .node(try reader.readInteger(UInt64.self))
        case MessageFlagBits.destinationGroupID: destination = .group(try reader.readInteger(UInt16.self))
        default: destination = nil
        }
        var messageExtensions: [UInt8]?
        if securityFlags & SecurityFlagBits.messageExtensions != 0 {
            messageExtensions = try reader.readLengthPrefixedBytes()
        }

        let header = MessageHeader(
            sessionID: sessionID,
            sessionType: sessionType,
            isControlMessage: securityFlags & SecurityFlagBits.control != 0,
            isPrivate: isPrivate,
            messageCounter: messageCounter,
            sourceNodeID: sourceNodeID,
            destination: destination,
            messageExtensions: messageExtensions
        )
        try header.validate()
        return header
    }

    /// The combinations Matter Core §4.4.1 and its Group Communication section forbid.
    func validate() throws(MessageError) {
        switch (sessionType, destination) {
        case (.unicast, .group):
            throw .groupDestinationOnUnicastSession
        case (.group, nil):
            throw .groupMessageWithoutDestination
        case (.group, .node) where !isControlMessage:
            throw .nodeDestinationOnGroupDataMessage
        default:
            break
        }
        if sessionType == .group, sourceNodeID == nil { throw .groupMessageWithoutSourceNodeID }
    }
}

// Matter Core §4.4.1.1 Message Flags bit layout
enum MessageFlagBits {
    static let versionShift: UInt8 = 4
    static let sourceNodeIDPresent: UInt8 = 0x04
    static let destinationSizeMask: UInt8 = 0x03
    static let destinationNodeID: UInt8 = 0x01
    static let destinationGroupID: UInt8 = 0x02
    static let reservedDestinationSize: UInt8 = 0x03
}

// Matter Core §4.4.1.3 Security Flags bit layout
enum SecurityFlagBits {
    static let privacy: UInt8 = 0x80
    static let control: UInt8 = 0x40
    static let messageExtensions: UInt8 = 0x20
    static let sessionTypeMask: UInt8 = 0x03
}
