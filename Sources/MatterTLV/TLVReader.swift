// Matter Core Appendix A TLV: decodes bytes into element trees.
//
// Member tag rules (§A.5): structure members must be tagged and array members anonymous, as
// connectedhomeip's reader enforces. Lenient where real peers are: duplicate structure tags and
// non-canonical member order are accepted (lookups take the first match), and any tag is
// accepted at the top level and in lists.
public enum TLVReader {
    /// Decodes exactly one element; bytes after it are an error.
    public static func decode(_ bytes: [UInt8]) throws(TLVError) -> TLVElement {
        var cursor = TLVCursor(bytes)
        let element = try cursor.readElement()
        guard cursor.offset == bytes.count else {
            throw .trailingBytes(offset: cursor.offset, count: bytes.count - cursor.offset)
        }
        return element
    }

    /// Decodes a sequence of top-level elements (empty input gives none).
    public static func decodeAll(_ bytes: [UInt8]) throws(TLVError) -> [TLVElement] {
        var cursor = TLVCursor(bytes)
        var elements: [TLVElement] = []
        while cursor.offset < bytes.count {
            elements.append(try cursor.readElement())
        }
        return elements
    }
}

/// Reads elements from a byte array by index; containers use an explicit stack, never recursion.
private struct TLVCursor {
    private enum ContainerKind { case structure, array, list }

    private struct OpenContainer {
        var kind: ContainerKind
        var tag: TLVTag
        var openedAt: Int
        var members: [TLVElement] = []

        var element: TLVElement {
            switch kind {
            case .structure: TLVElement(tag: tag, .structure(members))
            case .array: TLVElement(tag: tag, .array(members))
            case .list: TLVElement(tag: tag, .list(members))
            }
        }
    }

    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var remaining: Int { bytes.count - offset }

    /// Reads one complete top-level element, including everything inside it.
    mutating func readElement() throws(TLVError) -> TLVElement {
        var open: [OpenContainer] = []
        while true {
            if remaining == 0, let innermost = open.last {
                throw .unterminatedContainer(openedAt: innermost.openedAt)
            }
            let elementOffset = offset
            let control = try readInteger(width: 1)
            let type = UInt8(truncatingIfNeeded: control) & TLVElementType.mask
            let tagControl = UInt8(truncatingIfNeeded: control) & TLVTagControl.mask

            let element: TLVElement
            if type == TLVElementType.endOfContainer {
                guard tagControl == TLVTagControl.anonymous else {
                    throw .taggedEndOfContainer(offset: elementOffset)
                }
                guard let closed = open.popLast() else {
                    throw .endOfContainerOutsideContainer(offset: elementOffset)
                }
                element = closed.element
            } else {
                guard type < TLVElementType.endOfContainer else {
                    throw .reservedElementType(type, offset: elementOffset)
                }
                let tag = try readTag(tagControl)
                switch open.last?.kind {
                case .structure where tag == .anonymous:
                    throw .anonymousStructureMember(offset: elementOffset)
                case .array where tag != .anonymous:
                    throw .taggedArrayMember(offset: elementOffset)
                default:
                    break
                }
                let kind: ContainerKind? =
                    switch type {
                    case TLVElementType.structure: .structure
                    case TLVElementType.array: .array
                    case TLVElementType.list: .list
                    default: nil
                    }
                if let kind {
                    guard open.count < TLVLimits.maximumDepth else {
                        throw .nestingTooDeep(limit: TLVLimits.maximumDepth, offset: elementOffset)
                    }
                    open.append(OpenContainer(kind: kind, tag: tag, openedAt: elementOffset))
                    continue
                }
                element = TLVElement(tag: tag, try readScalar(type))
            }

            if open.isEmpty {
                return element
            }
            open[open.count - 1].members.append(element)
        }
    }

    // Matter Core §A.7.2 Tag Control Field.
    private mutating func readTag(_ tagControl: UInt8) throws(TLVError) -> TLVTag {
        switch tagControl {
        case TLVTagControl.anonymous:
            return .anonymous
        case TLVTagControl.context:
            return .context(UInt8(try readInteger(width: 1)))
        case TLVTagControl.commonProfile2:
            return .commonProfile(UInt32(try readInteger(width: 2)))
        case TLVTagControl.commonProfile4:
            return .commonProfile(UInt32(try readInteger(width: 4)))
        case TLVTagControl.implicitProfile2:
            return .implicitProfile(UInt32(try readInteger(width: 2)))
        case TLVTagControl.implicitProfile4:
            return .implicitProfile(UInt32(try readInteger(width: 4)))
        default:
            let vendorID = UInt16(try readInteger(width: 2))
            let profile = UInt16(try readInteger(width: 2))
            let width = tagControl == TLVTagControl.fullyQualified6 ? 2 : 4
            return .fullyQualified(vendorID: vendorID, profile: profile, tag: UInt32(try readInteger(width: width)))
        }
    }

    // Matter Core §A.7.1 Element Type Field, every type but containers and end of container.
    private mutating func readScalar(_ type: UInt8) throws(TLVError) -> TLVValue {
        switch type {
        case TLVElementType.signed1...TLVElementType.signed1 + 3:
            let width = 1 << Int(type - TLVElementType.signed1)
            let raw = try readInteger(width: width)
            let shift = UInt64(64 - 8 * width)
            return .signed(Int64(bitPattern: raw << shift) >> shift)
        case TLVElementType.unsigned1...TLVElementType.unsigned1 + 3:
            return .unsigned(try readInteger(width: 1 << Int(type - TLVElementType.unsigned1)))
        case TLVElementType.booleanFalse:
            return .bool(false)
        case TLVElementType.booleanTrue:
            return .bool(true)
        case TLVElementType.float:
            return .float(Float(bitPattern: UInt32(try readInteger(width: 4))))
        case TLVElementType.double:
            return .double(Double(bitPattern: try readInteger(width: 8)))
        case TLVElementType.utf8Length1...TLVElementType.utf8Length1 + 3:
            let stringOffset = offset
            let range = try readLengthPrefixed(lengthWidth: 1 << Int(type - TLVElementType.utf8Length1))
            guard let string = String(validating: bytes[range], as: UTF8.self) else {
                throw .invalidUTF8(offset: stringOffset)
            }
            return .utf8(string)
        case TLVElementType.bytesLength1...TLVElementType.bytesLength1 + 3:
            return .bytes(
                Array(bytes[try readLengthPrefixed(lengthWidth: 1 << Int(type - TLVElementType.bytesLength1))]))
        default:  // TLVElementType.null, the only type the caller leaves
            return .null
        }
    }

    /// Reads a length field, then skips that many bytes and returns their range.
    private mutating func readLengthPrefixed(lengthWidth: Int) throws(TLVError) -> Range<Int> {
        let lengthOffset = offset
        let length = try readInteger(width: lengthWidth)
        guard length <= UInt64(remaining) else {
            throw .lengthExceedsInput(length: length, offset: lengthOffset, remaining: remaining)
        }
        let start = offset
        offset += Int(length)
        return start..<offset
    }

    /// Reads a little-endian unsigned integer of `width` (1 to 8) bytes.
    private mutating func readInteger(width: Int) throws(TLVError) -> UInt64 {
        guard remaining >= width else {
            throw .truncated(needed: width, offset: offset, remaining: remaining)
        }
        var value: UInt64 = 0
        for index in 0..<width {
            value |= UInt64(bytes[offset + index]) << UInt64(8 * index)
        }
        offset += width
        return value
    }
}
