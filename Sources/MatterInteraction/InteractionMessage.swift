import MatterTLV

// Matter Core §10.7 Message Definitions: every Interaction Model message is one anonymous TLV structure.
/// An Interaction Model message: its opcode and its TLV payload.
public protocol InteractionMessage: TLVCodable, Hashable, Sendable {
    static var opcode: InteractionModelOpcode { get }
}

extension InteractionMessage {
    /// The application payload carrying this message.
    public func encoded() -> [UInt8] {
        TLVWriter.encode(TLVElement(tlvValue()))
    }

    /// Decodes the application payload of a message with this type's opcode.
    public init(payload: [UInt8]) throws(InteractionError) {
        do {
            self = try Self(tlv: TLVReader.decode(payload))
        } catch {
            throw .malformed(Self.opcode, error)
        }
    }
}
