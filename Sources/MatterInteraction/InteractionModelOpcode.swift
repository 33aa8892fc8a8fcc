// Matter Core §10.2.1 IM Protocol Messages (Table "Interaction Model Protocol Opcodes"), protocol 0x0001
/// The opcodes of `ProtocolID.interactionModel`.
public enum InteractionModelOpcode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case statusResponse = 0x01
    case readRequest = 0x02
    case subscribeRequest = 0x03
    case subscribeResponse = 0x04
    case reportData = 0x05
    case writeRequest = 0x06
    case writeResponse = 0x07
    case invokeRequest = 0x08
    case invokeResponse = 0x09
    case timedRequest = 0x0A

    public var description: String {
        switch self {
        case .statusResponse: "StatusResponse"
        case .readRequest: "ReadRequest"
        case .subscribeRequest: "SubscribeRequest"
        case .subscribeResponse: "SubscribeResponse"
        case .reportData: "ReportData"
        case .writeRequest: "WriteRequest"
        case .writeResponse: "WriteResponse"
        case .invokeRequest: "InvokeRequest"
        case .invokeResponse: "InvokeResponse"
        case .timedRequest: "TimedRequest"
        }
    }

    /// "ReportData (0x05)" for a known opcode, "opcode 0x42" for any other.
    static func describe(_ rawValue: UInt8) -> String {
        let hex = "0x" + String(rawValue, radix: 16, uppercase: true).leftPadded(to: 2)
        guard let opcode = InteractionModelOpcode(rawValue: rawValue) else { return "opcode \(hex)" }
        return "\(opcode) (\(hex))"
    }
}
