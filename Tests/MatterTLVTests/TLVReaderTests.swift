import MatterTLV
import MatterTestSupport
import Testing

@Suite struct TLVReaderTests {
    @Test(arguments: specExamples)
    func decodesSpecExample(_ example: TLVSpecExample) throws {
        #expect(try TLVReader.decode(hex(example.encoding)) == example.element)
    }

    @Test func decodesImplicitProfileTagsInBothWidths() throws {
        // Tag control 100 (2-byte) and 101 (4-byte), Matter Core §A.8.
        #expect(try TLVReader.decode(hex("84 01 00 2a")) == TLVElement(tag: .implicitProfile(1), .unsigned(42)))
        #expect(
            try TLVReader.decode(hex("a4 a0 86 01 00 2a")) == TLVElement(tag: .implicitProfile(100_000), .unsigned(42)))
    }

    @Test func decodesEveryIntegerWidth() throws {
        #expect(try TLVReader.decode(hex("01 00 80")) == TLVElement(.signed(-32768)))
        #expect(try TLVReader.decode(hex("02 00 00 00 80")) == TLVElement(.signed(Int64(Int32.min))))
        #expect(try TLVReader.decode(hex("03 00 00 00 00 00 00 00 80")) == TLVElement(.signed(.min)))
        #expect(try TLVReader.decode(hex("05 ff ff")) == TLVElement(.unsigned(65535)))
        #expect(try TLVReader.decode(hex("06 ff ff ff ff")) == TLVElement(.unsigned(0xFFFF_FFFF)))
        #expect(try TLVReader.decode(hex("07 ff ff ff ff ff ff ff ff")) == TLVElement(.unsigned(.max)))
    }

    @Test func decodesEveryStringLengthWidth() throws {
        #expect(try TLVReader.decode(hex("0d 02 00 68 69")) == TLVElement(.utf8("hi")))
        #expect(try TLVReader.decode(hex("0e 02 00 00 00 68 69")) == TLVElement(.utf8("hi")))
        #expect(try TLVReader.decode(hex("0f 02 00 00 00 00 00 00 00 68 69")) == TLVElement(.utf8("hi")))
        #expect(try TLVReader.decode(hex("11 01 00 ff")) == TLVElement(.bytes([0xFF])))
        #expect(try TLVReader.decode(hex("12 01 00 00 00 ff")) == TLVElement(.bytes([0xFF])))
        #expect(try TLVReader.decode(hex("13 01 00 00 00 00 00 00 00 ff")) == TLVElement(.bytes([0xFF])))
    }

    @Test func decodeAllReadsASequence() throws {
        #expect(
            try TLVReader.decodeAll(hex("04 2a 15 18 09")) == [
                TLVElement(.unsigned(42)), TLVElement(.structure([])), TLVElement(.bool(true)),
            ])
        #expect(try TLVReader.decodeAll([]) == [])
    }

    @Test func acceptsDuplicateStructureTagsAndAnyTagInLists() throws {
        let element = try TLVReader.decode(hex("15 24 01 01 24 01 02 18"))
        #expect(element[context: 1] == TLVElement(tag: .context(1), .unsigned(1)))
        #expect(
            try TLVReader.decode(hex("17 49 01 00 08 18"))
                == TLVElement(
                    .list([
                        TLVElement(tag: .commonProfile(1), .bool(true)), TLVElement(.bool(false)),
                    ])))
    }

    @Test(arguments: [
        ("", TLVError.truncated(needed: 1, offset: 0, remaining: 0)),
        ("05 01", .truncated(needed: 2, offset: 1, remaining: 1)),
        ("0b 00 00 00", .truncated(needed: 8, offset: 1, remaining: 3)),
        ("24", .truncated(needed: 1, offset: 1, remaining: 0)),
        ("c4 f1 ff ed", .truncated(needed: 2, offset: 3, remaining: 1)),
        ("0d 05", .truncated(needed: 2, offset: 1, remaining: 1)),
        ("0c 05 68 69", .lengthExceedsInput(length: 5, offset: 1, remaining: 2)),
        ("13 ff ff ff ff ff ff ff ff 00", .lengthExceedsInput(length: .max, offset: 1, remaining: 1)),
        ("0f 00 00 00 00 00 00 00 80", .lengthExceedsInput(length: 1 << 63, offset: 1, remaining: 0)),
        ("0c 02 c3 28", .invalidUTF8(offset: 1)),
        ("19", .reservedElementType(0x19, offset: 0)),
        ("15 3f 01 18", .reservedElementType(0x1F, offset: 1)),
        ("18", .endOfContainerOutsideContainer(offset: 0)),
        ("15 18 18", .trailingBytes(offset: 2, count: 1)),
        ("16 38 01", .taggedEndOfContainer(offset: 1)),
        ("15", .unterminatedContainer(openedAt: 0)),
        ("16 00 01 15 24 01 02", .unterminatedContainer(openedAt: 3)),
        ("15 04 2a 18", .anonymousStructureMember(offset: 1)),
        ("16 24 01 2a 18", .taggedArrayMember(offset: 1)),
        ("04 2a 04", .trailingBytes(offset: 2, count: 1)),
    ])
    func rejectsMalformedInput(_ input: String, _ expected: TLVError) {
        #expect(throws: expected) { try TLVReader.decode(hex(input)) }
    }

    @Test func decodeAllRejectsTruncatedLaterElement() {
        #expect(throws: TLVError.truncated(needed: 1, offset: 3, remaining: 0)) {
            try TLVReader.decodeAll(hex("04 2a 20"))
        }
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let depth = TLVLimits.maximumDepth
        let bytes = [UInt8](repeating: 0x17, count: depth) + [UInt8](repeating: 0x18, count: depth)
        var expected = TLVElement(.list([]))
        for _ in 1..<depth {
            expected = TLVElement(.list([expected]))
        }
        #expect(try TLVReader.decode(bytes) == expected)
    }

    @Test func nestingPastTheLimitThrows() {
        let depth = TLVLimits.maximumDepth + 1
        let bytes = [UInt8](repeating: 0x16, count: depth) + [UInt8](repeating: 0x18, count: depth)
        #expect(throws: TLVError.nestingTooDeep(limit: TLVLimits.maximumDepth, offset: depth - 1)) {
            try TLVReader.decode(bytes)
        }
    }

    @Test func tenThousandNestedContainersThrowTheDepthError() {
        let bytes = [UInt8](repeating: 0x17, count: 10_000) + [UInt8](repeating: 0x18, count: 10_000)
        #expect(throws: TLVError.nestingTooDeep(limit: TLVLimits.maximumDepth, offset: TLVLimits.maximumDepth)) {
            try TLVReader.decodeAll(bytes)
        }
    }
}
