/// Packs fields least-significant bit first into bytes, the way the QR code payload lays them out
/// (Matter Core §5.1.3, Table "Packed Binary Data Structure").
struct PayloadBitWriter {
    private(set) var bytes: [UInt8]
    private var bitOffset = 0

    init(byteCount: Int) {
        bytes = [UInt8](repeating: 0, count: byteCount)
    }

    mutating func append(_ value: UInt64, bits: Int) {
        for bit in 0..<bits where value >> UInt64(bit) & 1 == 1 {
            let position = bitOffset + bit
            bytes[position / 8] |= 1 << UInt8(position % 8)
        }
        bitOffset += bits
    }
}

struct PayloadBitReader {
    private let bytes: [UInt8]
    private var bitOffset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The caller guarantees the bytes hold every field it reads (checked once, up front).
    mutating func read(bits: Int) -> UInt64 {
        var value: UInt64 = 0
        for bit in 0..<bits {
            let position = bitOffset + bit
            value |= UInt64(bytes[position / 8] >> UInt8(position % 8) & 1) << UInt64(bit)
        }
        bitOffset += bits
        return value
    }
}
