// RFC 791 address, as carried in an A record (RFC 1035 §3.4.1).
public struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    /// Four bytes, network order.
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 else { return nil }
        self.bytes = bytes
    }

    /// The address as a 32-bit number (0xE00000FB is 224.0.0.251).
    public init(_ value: UInt32) {
        bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Dotted-quad text such as "224.0.0.251".
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let byte = UInt8(part) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    public var description: String { bytes.map(String.init).joined(separator: ".") }
}

extension IPv4Address: TextCodableAddress {}
