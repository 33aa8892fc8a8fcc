// RFC 1035 §3.2.2 TYPE values, RFC 3596 (AAAA), RFC 2782 (SRV).
public struct DNSRecordType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let a = DNSRecordType(rawValue: 1)
    public static let ptr = DNSRecordType(rawValue: 12)
    public static let txt = DNSRecordType(rawValue: 16)
    public static let aaaa = DNSRecordType(rawValue: 28)
    public static let srv = DNSRecordType(rawValue: 33)
    /// RFC 1035 §3.2.3 QTYPE `*`: every record of the name.
    public static let any = DNSRecordType(rawValue: 255)

    public var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}
