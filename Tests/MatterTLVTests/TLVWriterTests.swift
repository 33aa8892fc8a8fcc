import MatterTLV
import MatterTestSupport
import Testing

@Suite struct TLVWriterTests {
    @Test(arguments: specExamples.filter(\.shortest))
    func encodesSpecExample(_ example: TLVSpecExample) {
        #expect(TLVWriter.encode(example.element) == hex(example.encoding))
    }

    @Test func encodesImplicitProfileTagsInTheShortestForm() {
        #expect(TLVWriter.encode(TLVElement(tag: .implicitProfile(0xFFFF), .null)) == hex("94 ff ff"))
        #expect(TLVWriter.encode(TLVElement(tag: .implicitProfile(0x1_0000), .null)) == hex("b4 00 00 01 00"))
        #expect(TLVWriter.encode(TLVElement(tag: .commonProfile(0xFFFF), .null)) == hex("54 ff ff"))
        #expect(TLVWriter.encode(TLVElement(tag: .commonProfile(0x1_0000), .null)) == hex("74 00 00 01 00"))
        #expect(
            TLVWriter.encode(TLVElement(tag: .fullyQualified(vendorID: 1, profile: 2, tag: 0xFFFF), .null))
                == hex("d4 01 00 02 00 ff ff"))
        #expect(
            TLVWriter.encode(TLVElement(tag: .fullyQualified(vendorID: 1, profile: 2, tag: 0x1_0000), .null))
                == hex("f4 01 00 02 00 00 00 01 00"))
    }

    @Test(arguments: [
        (Int64(127), "00 7f"), (128, "01 80 00"), (-128, "00 80"), (-129, "01 7f ff"),
        (32767, "01 ff 7f"), (32768, "02 00 80 00 00"), (-32768, "01 00 80"), (-32769, "02 ff 7f ff ff"),
        (Int64(Int32.max), "02 ff ff ff 7f"), (Int64(Int32.max) + 1, "03 00 00 00 80 00 00 00 00"),
        (Int64(Int32.min), "02 00 00 00 80"), (Int64(Int32.min) - 1, "03 ff ff ff 7f ff ff ff ff"),
        (.max, "03 ff ff ff ff ff ff ff 7f"), (.min, "03 00 00 00 00 00 00 00 80"),
    ])
    func signedIntegersUseTheShortestWidth(_ value: Int64, _ encoding: String) throws {
        #expect(TLVWriter.encode(TLVElement(.signed(value))) == hex(encoding))
        #expect(try TLVReader.decode(hex(encoding)) == TLVElement(.signed(value)))
    }

    @Test(arguments: [
        (UInt64(0), "04 00"), (255, "04 ff"), (256, "05 00 01"), (65535, "05 ff ff"), (65536, "06 00 00 01 00"),
        (0xFFFF_FFFF, "06 ff ff ff ff"), (0x1_0000_0000, "07 00 00 00 00 01 00 00 00"),
        (.max, "07 ff ff ff ff ff ff ff ff"),
    ])
    func unsignedIntegersUseTheShortestWidth(_ value: UInt64, _ encoding: String) throws {
        #expect(TLVWriter.encode(TLVElement(.unsigned(value))) == hex(encoding))
        #expect(try TLVReader.decode(hex(encoding)) == TLVElement(.unsigned(value)))
    }

    @Test(arguments: [(255, "10 ff"), (256, "11 00 01"), (65535, "11 ff ff"), (65536, "12 00 00 01 00")])
    func octetStringsUseTheShortestLengthField(_ count: Int, _ header: String) throws {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
        let encoded = TLVWriter.encode(TLVElement(.bytes(payload)))
        #expect(encoded == hex(header) + payload)
        #expect(try TLVReader.decode(encoded) == TLVElement(.bytes(payload)))
    }

    @Test func utf8StringsUseTheShortestLengthField() throws {
        let string = String(repeating: "ü", count: 128)  // 256 UTF-8 bytes
        let encoded = TLVWriter.encode(TLVElement(tag: .context(7), .utf8(string)))
        #expect(Array(encoded.prefix(4)) == hex("2d 07 00 01"))
        #expect(encoded.count == 4 + 256)
        #expect(try TLVReader.decode(encoded) == TLVElement(tag: .context(7), .utf8(string)))
    }

    @Test func encodesASequenceOfTopLevelElements() throws {
        let elements = [
            TLVElement(.unsigned(1)), TLVElement(tag: .context(2), .list([TLVElement(.null)])),
            TLVElement(.bool(false)),
        ]
        let encoded = TLVWriter.encode(elements)
        #expect(encoded == hex("04 01 37 02 14 18 08"))
        #expect(try TLVReader.decodeAll(encoded) == elements)
    }

    @Test func nanSurvivesARoundTripBitForBit() throws {
        let quietNaN = Float(bitPattern: 0x7FC0_0001)
        let decoded = try TLVReader.decode(TLVWriter.encode(TLVElement(.float(quietNaN))))
        guard case .float(let value) = decoded.value else {
            Issue.record("expected a float, got \(decoded)")
            return
        }
        #expect(value.bitPattern == 0x7FC0_0001)
    }

    @Test func deepTreesEncodeWithoutRecursion() {
        var element = TLVElement(.null)
        for _ in 0..<10_000 {
            element = TLVElement(.array([element]))
        }
        let encoded = TLVWriter.encode(element)
        #expect(encoded == [UInt8](repeating: 0x16, count: 10_000) + [0x14] + [UInt8](repeating: 0x18, count: 10_000))
    }
}
