// RFC 1035 §3.3 and §3.4 RDATA, for the record types DNS-SD uses; others stay opaque bytes.
public enum DNSRecordData: Hashable, Sendable {
    case a(IPv4Address)
    case aaaa(IPv6Address)
    case ptr(DNSName)
    case srv(DNSServiceLocation)
    case txt([TXTEntry])
    case opaque(type: DNSRecordType, bytes: [UInt8])

    public var type: DNSRecordType {
        switch self {
        case .a: .a
        case .aaaa: .aaaa
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .opaque(let type, _): type
        }
    }
}

// RFC 2782 SRV RDATA: where an instance's service runs.
public struct DNSServiceLocation: Hashable, Sendable {
    public var priority: UInt16
    public var weight: UInt16
    public var port: UInt16
    public var target: DNSName

    public init(priority: UInt16 = 0, weight: UInt16 = 0, port: UInt16, target: DNSName) {
        self.priority = priority
        self.weight = weight
        self.port = port
        self.target = target
    }
}

// RFC 6763 §6.3 and §6.4: one TXT string, "key=value", or a bare "key" for a boolean attribute.
public struct TXTEntry: Hashable, Sendable, CustomStringConvertible {
    public var key: String
    /// nil for a boolean key written without "="; "" for "key=".
    public var value: String?

    public init(key: String, value: String?) {
        self.key = key
        self.value = value
    }

    /// Splits one TXT string at its first "=".
    init(string bytes: ArraySlice<UInt8>) {
        if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
            key = String(decoding: bytes[..<equals], as: UTF8.self)
            value = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
        } else {
            key = String(decoding: bytes, as: UTF8.self)
            value = nil
        }
    }

    public var description: String { value.map { "\(key)=\($0)" } ?? key }
}
