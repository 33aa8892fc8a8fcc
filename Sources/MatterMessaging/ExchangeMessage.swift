/// What an application protocol sends or receives on an exchange: the protocol, the opcode and the payload.
/// Headers, counters and acknowledgements are the exchange layer's business.
public struct ExchangeMessage: Sendable, Hashable {
    public var protocolID: ProtocolID
    public var opcode: UInt8
    public var payload: [UInt8]

    public init(protocolID: ProtocolID, opcode: UInt8, payload: [UInt8]) {
        self.protocolID = protocolID
        self.opcode = opcode
        self.payload = payload
    }
}
