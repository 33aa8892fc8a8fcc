// Matter Core §4.4.3 Protocol Header (Protocol ID field), values for the Matter standard vendor
/// The protocol a message belongs to, within the namespace of its protocol vendor.
public struct ProtocolID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let secureChannel = ProtocolID(rawValue: 0x0000)
    public static let interactionModel = ProtocolID(rawValue: 0x0001)
    public static let bulkDataExchange = ProtocolID(rawValue: 0x0002)
    public static let userDirectedCommissioning = ProtocolID(rawValue: 0x0003)

    public var description: String {
        switch self {
        case .secureChannel: return "secure channel"
        case .interactionModel: return "interaction model"
        case .bulkDataExchange: return "bulk data exchange"
        case .userDirectedCommissioning: return "user directed commissioning"
        default: return "protocol 0x" + String(rawValue, radix: 16, uppercase: true)
        }
    }
}
