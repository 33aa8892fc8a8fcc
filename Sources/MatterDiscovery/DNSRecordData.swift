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
    /// The value's bytes as sent: RFC 6763 §6.5 values are opaque (Thread's `_meshcop` sends binary ones); nil for a
    /// boolean key written without "="; empty for "key=".
    public var bytes: [UInt8]?

    public init(key: String, value: String?) {
        self.key = key
        bytes = value.map { Array($0.utf8) }
    }

    public init(key: String, bytes: [UInt8]) {
        self.key = key
        self.bytes = bytes
    }

    /// The value as text (UTF-8, malformed bytes replaced).
    public var value: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// Splits one TXT string at its first "=".
    init(string bytes: ArraySlice<UInt8>) {
        if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
            key = String(decoding: bytes[..<equals], as: UTF8.self)
            self.bytes = Array(bytes[(equals + 1)...])
        } else {
            key = String(decoding: bytes, as: UTF8.self)
            self.bytes = nil
        }
    }

    /// The string as written on the wire: "key=value" or "key".
    var encoded: [UInt8] { Array(key.utf8) + (bytes.map { [UInt8(ascii: "=")] + $0 } ?? []) }

    public var description: String { value.map { "\(key)=\($0)" } ?? key }
}
