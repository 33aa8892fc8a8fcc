import MatterTLV
import Testing

@Suite struct TLVErrorTests {
    @Test(arguments: [
        (TLVError.truncated(needed: 4, offset: 12, remaining: 2), "truncated: needed 4 bytes at offset 12, 2 left"),
        (
            .lengthExceedsInput(length: 300, offset: 5, remaining: 20),
            "length 300 at offset 5 exceeds the 20 bytes left"
        ),
        (.invalidUTF8(offset: 3), "invalid UTF-8 in the string at offset 3"),
        (.reservedElementType(0x1F, offset: 1), "reserved element type 0x1F at offset 1"),
        (.endOfContainerOutsideContainer(offset: 0), "end of container at offset 0 with no container open"),
        (.taggedEndOfContainer(offset: 1), "end of container at offset 1 has a tag; it must be anonymous"),
        (.unterminatedContainer(openedAt: 3), "container opened at offset 3 has no end of container"),
        (.nestingTooDeep(limit: 32, offset: 32), "container at offset 32 nests deeper than 32 levels"),
        (
            .anonymousStructureMember(offset: 1),
            "structure member at offset 1 is anonymous; structure members must be tagged"
        ),
        (.taggedArrayMember(offset: 1), "array member at offset 1 has a tag; array members must be anonymous"),
        (.trailingBytes(offset: 2, count: 1), "1 trailing byte at offset 2 after the element"),
        (.trailingBytes(offset: 2, count: 3), "3 trailing bytes at offset 2 after the element"),
        (.missingField(1), "missing field 1"),
        (
            .inField(1, .typeMismatch(expected: .unsignedInteger, found: .utf8String)),
            "field 1: expected unsigned integer, found UTF-8 string"
        ),
        (
            .inElement(3, .integerOutOfRange(value: "70000", type: "UInt16")),
            "element 3: value 70000 does not fit UInt16"
        ),
    ])
    func describesItselfPrecisely(_ error: TLVError, _ message: String) {
        #expect(error.description == message)
    }
}
