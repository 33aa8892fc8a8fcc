extension Array where Element == UInt8 {
    /// Appends `value` least significant byte first, as every Matter message field is laid out.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<MemoryLayout<T>.size {
            append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    /// Appends a 16-bit little-endian length and then `bytes`.
    mutating func appendLengthPrefixed(_ bytes: [UInt8]) throws(MessageError) {
        guard let length = UInt16(exactly: bytes.count) else {
            throw .extensionTooLong(length: bytes.count)
        }
        appendLittleEndian(length)
        append(contentsOf: bytes)
    }
}
