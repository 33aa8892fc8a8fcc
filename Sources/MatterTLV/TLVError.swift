/// What went wrong reading TLV bytes or decoding a typed value; offsets count from the input's start.
public indirect enum TLVError: Error, Hashable, Sendable, CustomStringConvertible {
    // Reading bytes (Matter Core Appendix A).
    case truncated(needed: Int, offset: Int, remaining: Int)
    /// A string length larger than the bytes left (including lengths beyond `Int`).
    case lengthExceedsInput(length: UInt64, offset: Int, remaining: Int)
    case invalidUTF8(offset: Int)
    case reservedElementType(UInt8, offset: Int)
    case endOfContainerOutsideContainer(offset: Int)
    case taggedEndOfContainer(offset: Int)
    case unterminatedContainer(openedAt: Int)
    case nestingTooDeep(limit: Int, offset: Int)
    case anonymousStructureMember(offset: Int)
    case taggedArrayMember(offset: Int)
    case trailingBytes(offset: Int, count: Int)

    // Decoding typed values.
    case typeMismatch(expected: TLVValueKind, found: TLVValueKind)
    case integerOutOfRange(value: String, type: String)
    case missingField(UInt8)
    /// An error inside the structure member with this context tag.
    case inField(UInt8, TLVError)
    /// An error inside the array member at this position.
    case inElement(Int, TLVError)

    public var description: String {
        switch self {
        case .truncated(let needed, let offset, let remaining):
            "truncated: needed \(needed) bytes at offset \(offset), \(remaining) left"
        case .lengthExceedsInput(let length, let offset, let remaining):
            "length \(length) at offset \(offset) exceeds the \(remaining) bytes left"
        case .invalidUTF8(let offset):
            "invalid UTF-8 in the string at offset \(offset)"
        case .reservedElementType(let type, let offset):
            "reserved element type 0x\(String(type, radix: 16, uppercase: true)) at offset \(offset)"
        case .endOfContainerOutsideContainer(let offset):
            "end of container at offset \(offset) with no container open"
        case .taggedEndOfContainer(let offset):
            "end of container at offset \(offset) has a tag; it must be anonymous"
        case .unterminatedContainer(let openedAt):
            "container opened at offset \(openedAt) has no end of container"
        case .nestingTooDeep(let limit, let offset):
            "container at offset \(offset) nests deeper than \(limit) levels"
        case .anonymousStructureMember(let offset):
            "structure member at offset \(offset) is anonymous; structure members must be tagged"
        case .taggedArrayMember(let offset):
            "array member at offset \(offset) has a tag; array members must be anonymous"
        case .trailingBytes(let offset, let count):
            "\(count) trailing byte\(count == 1 ? "" : "s") at offset \(offset) after the element"
        case .typeMismatch(let expected, let found):
            "expected \(expected), found \(found)"
        case .integerOutOfRange(let value, let type):
            "value \(value) does not fit \(type)"
        case .missingField(let tag):
            "missing field \(tag)"
        case .inField(let tag, let error):
            "field \(tag): \(error)"
        case .inElement(let index, let error):
            "element \(index): \(error)"
        }
    }
}
