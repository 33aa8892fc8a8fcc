// Matter Core §4.4 Message Format
/// One Matter message: message header, protocol header and application payload.
/// Unsecured messages are encoded here; secured ones through `sealed(key:nonceSourceNodeID:)`.
public struct Message: Sendable, Hashable {
    public var header: MessageHeader
    public var protocolHeader: ProtocolHeader
    public var payload: [UInt8]

    public init(header: MessageHeader, protocolHeader: ProtocolHeader, payload: [UInt8]) {
        self.header = header
        self.protocolHeader = protocolHeader
        self.payload = payload
    }

    /// Encodes a message of the unsecured session as header ‖ protocol header ‖ payload.
    public func encode() throws(MessageError) -> [UInt8] {
        guard !header.isSecured else { throw .securedSessionNeedsKey(sessionID: header.sessionID) }
        return try header.encode() + protocolHeader.encode() + payload
    }

    /// Decodes a message of the unsecured session; a secured one is refused, since its payload is ciphertext.
    public static func decode(_ bytes: [UInt8]) throws(MessageError) -> Message {
        var reader = ByteReader(bytes)
        let header = try MessageHeader.decode(from: &reader)
        guard !header.isSecured else { throw .securedSessionNeedsKey(sessionID: header.sessionID) }
        let protocolHeader = try ProtocolHeader.decode(from: &reader)
        return Message(header: header, protocolHeader: protocolHeader, payload: reader.readRemaining())
    }
}
