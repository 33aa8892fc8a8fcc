/// Bytes from a hex string written in a test; spaces are ignored.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).compactMap { index in
        UInt8(String(digits[index...index + 1]), radix: 16)
    }
}
