/// Test vectors as text: hex (whitespace and ':' separators ignored) and base64 (PEM bodies).
extension Array where Element == UInt8 {
    /// Traps on malformed text: a vector typed wrong is a bug in the test, not a case to handle.
    public init(hex text: String) {
        let digits = [Character](text.filter { !$0.isWhitespace && $0 != ":" })
        precondition(digits.count.isMultiple(of: 2), "odd number of hex digits in \(text)")
        self = stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else {
                preconditionFailure("not hex: \(text)")
            }
            return byte
        }
    }

    /// RFC 4648 base64; whitespace and padding are ignored.
    public init(base64 text: String) {
        let alphabet = [UInt8]("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var bits: UInt32 = 0
        var bitCount = 0
        var bytes: [UInt8] = []
        for character in text.utf8 where character != UInt8(ascii: "=") && character > 0x20 {
            guard let value = alphabet.firstIndex(of: character) else { preconditionFailure("not base64: \(text)") }
            bits = bits << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
            }
        }
        self = bytes
    }

    /// Lower-case hex, two digits a byte.
    public var hexString: String {
        map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// `hex("04 2A")` for the vectors of a test.
public func hex(_ text: String) -> [UInt8] {
    [UInt8](hex: text)
}
