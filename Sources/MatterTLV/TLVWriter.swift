// Matter Core Appendix A TLV: encodes element trees, always in the shortest form.
//
// The writer encodes the tree as given; keeping structure members tagged and array members
// anonymous (§A.5) is the caller's part, and the reader rejects trees that break it.
public enum TLVWriter {
    public static func encode(_ element: TLVElement) -> [UInt8] {
        encode([element])
    }

    public static func encode(_ elements: [TLVElement]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(TLVLimits.initialWriterCapacity)
        // Containers use an explicit stack so no tree, however deep, can exhaust the call stack.
        var pending: [IndexingIterator<[TLVElement]>] = [elements.makeIterator()]
        while !pending.isEmpty {
            guard let element = pending[pending.count - 1].next() else {
                pending.removeLast()
                if !pending.isEmpty {
                    output.append(TLVElementType.endOfContainer)
                }
                continue
            }
            let controlOffset = output.count
            output.append(0)
            let tagControl = appendTag(element.tag, to: &output)
            let type: UInt8
            switch element.value {
            case .signed(let value):
                let width =
                    value == Int64(Int8(truncatingIfNeeded: value))
                    ? 1
                    : value == Int64(Int16(truncatingIfNeeded: value))
                        ? 2
                        : value == Int64(Int32(truncatingIfNeeded: value)) ? 4 : 8
                type = TLVElementType.signed1 + widthCode(width)
                appendLittleEndian(UInt64(bitPattern: value), width: width, to: &output)
            case .unsigned(let value):
                let width = unsignedWidth(value)
                type = TLVElementType.unsigned1 + widthCode(width)
                appendLittleEndian(value, width: width, to: &output)
            case .bool(let value):
                type = value ? TLVElementType.booleanTrue : TLVElementType.booleanFalse
            case .float(let value):
                type = TLVElementType.float
                appendLittleEndian(UInt64(value.bitPattern), width: 4, to: &output)
            case .double(let value):
                type = TLVElementType.double
                appendLittleEndian(value.bitPattern, width: 8, to: &output)
            case .utf8(let string):
                var string = string
                type = string.withUTF8 { utf8 in
                    TLVElementType.utf8Length1 + appendLengthPrefixed(utf8, to: &output)
                }
            case .bytes(let bytes):
                type = bytes.withUnsafeBufferPointer { buffer in
                    TLVElementType.bytesLength1 + appendLengthPrefixed(buffer, to: &output)
                }
            case .null:
                type = TLVElementType.null
            case .structure(let members):
                type = TLVElementType.structure
                pending.append(members.makeIterator())
            case .array(let members):
                type = TLVElementType.array
                pending.append(members.makeIterator())
            case .list(let members):
                type = TLVElementType.list
                pending.append(members.makeIterator())
            }
            output[controlOffset] = tagControl | type
        }
        return output
    }

    /// Appends the tag bytes and returns the tag control bits for the control octet.
    private static func appendTag(_ tag: TLVTag, to output: inout [UInt8]) -> UInt8 {
        switch tag {
        case .anonymous:
            return TLVTagControl.anonymous
        case .context(let number):
            output.append(number)
            return TLVTagControl.context
        case .commonProfile(let number):
            let short = number <= UInt16.max
            appendLittleEndian(UInt64(number), width: short ? 2 : 4, to: &output)
            return short ? TLVTagControl.commonProfile2 : TLVTagControl.commonProfile4
        case .implicitProfile(let number):
            let short = number <= UInt16.max
            appendLittleEndian(UInt64(number), width: short ? 2 : 4, to: &output)
            return short ? TLVTagControl.implicitProfile2 : TLVTagControl.implicitProfile4
        case .fullyQualified(let vendorID, let profile, let number):
            let short = number <= UInt16.max
            appendLittleEndian(UInt64(vendorID), width: 2, to: &output)
            appendLittleEndian(UInt64(profile), width: 2, to: &output)
            appendLittleEndian(UInt64(number), width: short ? 2 : 4, to: &output)
            return short ? TLVTagControl.fullyQualified6 : TLVTagControl.fullyQualified8
        }
    }

    /// Appends the shortest length field and the bytes; returns the width code (0...3) of the length.
    private static func appendLengthPrefixed(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> UInt8 {
        let width = unsignedWidth(UInt64(bytes.count))
        appendLittleEndian(UInt64(bytes.count), width: width, to: &output)
        output.append(contentsOf: bytes)
        return widthCode(width)
    }

    private static func unsignedWidth(_ value: UInt64) -> Int {
        value <= UInt8.max ? 1 : value <= UInt16.max ? 2 : value <= UInt32.max ? 4 : 8
    }

    /// The element type offset for a 1, 2, 4 or 8-byte field: 0, 1, 2 or 3.
    private static func widthCode(_ width: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: width.trailingZeroBitCount)
    }

    private static func appendLittleEndian(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        for index in 0..<width {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index)))
        }
    }
}
