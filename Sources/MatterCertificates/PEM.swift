// RFC 7468 §2 textual encoding: "-----BEGIN label-----", base64 lines, "-----END label-----".
public enum PEM {
    /// The decoded bodies of every block with this label, in order; blocks with other labels are skipped.
    public static func blocks(labeled label: String, in text: String) throws(CertificateError) -> [[UInt8]] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var blocks: [[UInt8]] = []
        var body: String?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace
            if line == begin {
                guard body == nil else { throw .invalidField("PEM", reason: "\(begin) inside an open block") }
                body = ""
            } else if line == end {
                guard let encoded = body else { throw .invalidField("PEM", reason: "\(end) without \(begin)") }
                blocks.append(try decodeBase64(encoded))
                body = nil
            } else if body != nil {
                body? += line
            }
        }
        guard body == nil else { throw .invalidField("PEM", reason: "\(begin) has no \(end)") }
        return blocks
    }

    /// RFC 4648 §4 base64 with padding; whitespace has been removed by the caller.
    static func decodeBase64(_ text: String) throws(CertificateError) -> [UInt8] {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else {
            throw .invalidField("PEM", reason: "base64 body of \(characters.count) characters is not a multiple of 4")
        }
        let padding = characters.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { throw .invalidField("PEM", reason: "more than two base64 padding characters") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 4 * 3)
        var accumulator: UInt32 = 0
        for (index, character) in characters.dropLast(padding).enumerated() {
            guard let value = sextet(character) else {
                throw .invalidField(
                    "PEM", reason: "character 0x\(hex(UInt64(character), digits: 2)) at \(index) is not base64")
            }
            accumulator = accumulator << 6 | UInt32(value)
            if index % 4 == 3 {
                bytes += [
                    UInt8(truncatingIfNeeded: accumulator >> 16), UInt8(truncatingIfNeeded: accumulator >> 8),
                    UInt8(truncatingIfNeeded: accumulator),
                ]
                accumulator = 0
            }
        }
        // Two trailing sextets carry one octet, three carry two; the leftover bits must be zero.
        switch padding {
        case 2:
            guard accumulator & 0xF == 0 else {
                throw .invalidField("PEM", reason: "non-zero bits before base64 padding")
            }
            bytes.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 1:
            guard accumulator & 0x3 == 0 else {
                throw .invalidField("PEM", reason: "non-zero bits before base64 padding")
            }
            bytes += [UInt8(truncatingIfNeeded: accumulator >> 10), UInt8(truncatingIfNeeded: accumulator >> 2)]
        default:
            break
        }
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}

extension Substring {
    /// The line without leading and trailing spaces, tabs and carriage returns.
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
