/// Reads little-endian fields from a byte array, throwing instead of reading past its end.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    var remainingCount: Int { bytes.count - offset }

    mutating func readInteger<T: FixedWidthInteger>(_: T.Type = T.self) throws(MessageError) -> T {
        let size = MemoryLayout<T>.size
        try requireAvailable(size)
        var value: T = 0
        for index in 0..<size {
            value |= T(bytes[offset + index]) << (8 * index)
        }
        offset += size
        return value
    }

    mutating func readBytes(_ count: Int) throws(MessageError) -> [UInt8] {
        try requireAvailable(count)
        let slice = Array(bytes[offset..<(offset + count)])
        offset += count
        return slice
    }

    /// A 16-bit little-endian length followed by that many bytes.
    mutating func readLengthPrefixedBytes() throws(MessageError) -> [UInt8] {
        let length = try readInteger(UInt16.self)
        return try readBytes(Int(length))
    }

    mutating func readRemaining() -> [UInt8] {
        let rest = Array(bytes[offset...])
        offset = bytes.count
        return rest
    }

    private func requireAvailable(_ count: Int) throws(MessageError) {
        guard count <= remainingCount else {
            throw .truncated(needed: count, offset: offset, available: remainingCount)
        }
    }
}
