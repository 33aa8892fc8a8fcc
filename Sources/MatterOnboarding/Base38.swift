// Matter Core §5.1.3.1 Base-38 encoding of the QR code payload:
// 3 bytes → 5 characters, a trailing 2 bytes → 4, a trailing byte → 2; least significant character first.
enum Base38 {
    static let alphabet: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.".utf8)

    /// Characters produced for a chunk of 1, 2 or 3 bytes.
    private static let charactersPerChunk = [0, 2, 4, 5]

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 5)
        var index = 0
        while index < bytes.count {
            let chunkLength = min(3, bytes.count - index)
            var value = 0
            for offset in (0..<chunkLength).reversed() {
                value = value << 8 | Int(bytes[index + offset])
            }
            for _ in 0..<charactersPerChunk[chunkLength] {
                output.append(alphabet[value % 38])
                value /= 38
            }
            index += chunkLength
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ text: Substring) throws(OnboardingError) -> [UInt8] {
        let characters = Array(text.utf8)
        let remainder = characters.count % 5
        guard remainder != 1, remainder != 3 else {
            throw .invalidBase38Length(characters.count)
        }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count / 5 * 3 + 2)
        var index = 0
        while index < characters.count {
            let chunkLength = min(5, characters.count - index)
            let byteCount = chunkLength == 5 ? 3 : chunkLength == 4 ? 2 : 1
            var value = 0
            for offset in (0..<chunkLength).reversed() {
                let character = characters[index + offset]
                guard let digit = alphabet.firstIndex(of: character) else {
                    throw .invalidBase38Character(Character(Unicode.Scalar(character)), position: index + offset)
                }
                value = value * 38 + digit
            }
            guard value < 1 << (8 * byteCount) else {
                throw .invalidBase38Chunk(position: index)
            }
            for _ in 0..<byteCount {
                output.append(UInt8(truncatingIfNeeded: value))
                value >>= 8
            }
            index += chunkLength
        }
        return output
    }
}
