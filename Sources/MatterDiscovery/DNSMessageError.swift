/// Why a DNS message could not be read or written. Every message says what and where in one line.
public enum DNSMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    case truncated(needed: Int, offset: Int, remaining: Int)
    case labelTooLong(length: Int, offset: Int)
    case nameTooLong(offset: Int)
    case forwardPointer(target: Int, offset: Int)
    case pointerLoop(target: Int, offset: Int)
    case invalidRecordData(type: DNSRecordType, length: Int, offset: Int, reason: String)
    case emptyLabel(name: String)
    case txtStringTooLong(length: Int)
    case recordDataTooLong(length: Int)

    public var description: String {
        switch self {
        case .truncated(let needed, let offset, let remaining):
            "truncated: needed \(needed) bytes at offset \(offset), \(remaining) left"
        case .labelTooLong(let length, let offset):
            "label of \(length) bytes at offset \(offset); a label holds at most \(DiscoveryLimits.maximumLabelLength)"
        case .nameTooLong(let offset):
            "name starting at offset \(offset) is longer than \(DiscoveryLimits.maximumNameLength) bytes"
        case .forwardPointer(let target, let offset):
            "compression pointer at offset \(offset) points forward to \(target); pointers must point backwards"
        case .pointerLoop(let target, let offset):
            "compression pointer at offset \(offset) points to \(target), inside the name it belongs to (a loop)"
        case .invalidRecordData(let type, let length, let offset, let reason):
            "\(type) record data of \(length) bytes at offset \(offset): \(reason)"
        case .emptyLabel(let name):
            "name '\(name)' has an empty label"
        case .txtStringTooLong(let length):
            "TXT string of \(length) bytes; each holds at most \(DiscoveryLimits.maximumTXTStringLength)"
        case .recordDataTooLong(let length):
            "record data of \(length) bytes does not fit the 16-bit length field"
        }
    }
}
