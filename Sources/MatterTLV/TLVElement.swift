// Matter Core Appendix A TLV: one element, a tag and a value (containers hold their members).
public struct TLVElement: Hashable, Sendable {
    public var tag: TLVTag
    public var value: TLVValue

    public init(tag: TLVTag = .anonymous, _ value: TLVValue) {
        self.tag = tag
        self.value = value
    }

    /// The first member of a structure or list with this context tag; nil for other values.
    public subscript(context tag: UInt8) -> TLVElement? {
        switch value {
        case .structure(let members), .list(let members):
            members.first { $0.tag == .context(tag) }
        default:
            nil
        }
    }
}

/// An element carried inside JSON (the hub's local socket) as its TLV encoding in hexadecimal: compact, exact (every
/// integer width and tag survives), and decoded with the same reader as a message from a device.
extension TLVElement: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "odd hex length"))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not hex"))
            }
            bytes.append(high << 4 | low)
        }
        do {
            self = try TLVReader.decode(bytes)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in TLVWriter.encode(self) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        var container = encoder.singleValueContainer()
        try container.encode(String(decoding: text, as: UTF8.self))
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
