/// What is wrong with DER bytes (ITU-T X.690); offsets count from the input's start.
public enum DERError: Error, Hashable, Sendable, CustomStringConvertible {
    case truncated(needed: Int, offset: Int, remaining: Int)
    case indefiniteLength(offset: Int)
    case nonMinimalLength(offset: Int)
    case lengthTooLong(octets: Int, offset: Int)
    case nonMinimalTagNumber(offset: Int)
    case tagNumberTooLarge(offset: Int)
    case nestingTooDeep(limit: Int, offset: Int)
    case trailingBytes(offset: Int, count: Int)
    /// A value that is well framed but whose contents break its type's rules.
    case invalidValue(type: String, reason: String)
    /// A node with another tag than the one the structure requires.
    case unexpectedTag(expected: String, found: DERTag)
    /// A constructed node with a different number of members than the structure requires.
    case unexpectedMemberCount(in: String, expected: String, found: Int)

    public var description: String {
        switch self {
        case .truncated(let needed, let offset, let remaining):
            "truncated: needed \(needed) bytes at offset \(offset), \(remaining) left"
        case .indefiniteLength(let offset):
            "indefinite length at offset \(offset); DER allows definite lengths only"
        case .nonMinimalLength(let offset):
            "length at offset \(offset) is not in its shortest form"
        case .lengthTooLong(let octets, let offset):
            "length at offset \(offset) has \(octets) octets; at most \(CertificateLimits.maximumDERLengthOctets) are accepted"
        case .nonMinimalTagNumber(let offset):
            "tag number at offset \(offset) is not in its shortest form"
        case .tagNumberTooLarge(let offset):
            "tag number at offset \(offset) is larger than \(CertificateLimits.maximumDERTagNumber)"
        case .nestingTooDeep(let limit, let offset):
            "value at offset \(offset) nests deeper than \(limit) levels"
        case .trailingBytes(let offset, let count):
            "\(count) trailing bytes at offset \(offset) after the value"
        case .invalidValue(let type, let reason):
            "invalid \(type): \(reason)"
        case .unexpectedTag(let expected, let found):
            "expected \(expected), found \(found)"
        case .unexpectedMemberCount(let container, let expected, let found):
            "\(container) has \(found) members, expected \(expected)"
        }
    }
}
