import MatterCertificates
import MatterTestSupport
import Testing

struct DERNodeValuesTests {
    @Test(arguments: [
        (UInt64(0), "02 01 00"), (127, "02 01 7f"), (128, "02 02 00 80"), (256, "02 02 01 00"),
        (0xFFFF_FFFF_FFFF_FFFF, "02 09 00 ff ff ff ff ff ff ff ff"),
    ])
    func integersAreMinimalTwosComplement(value: UInt64, hex: String) throws {
        let bytes = [UInt8](hex: hex)
        #expect(DERWriter.encode(.integer(value)) == bytes)
        #expect(try DERParser.parse(bytes).unsignedInteger() == value)
    }

    @Test(arguments: ["02 02 00 7f", "02 02 ff 80", "02 00"])
    func nonMinimalOrEmptyIntegersAreRejected(hex: String) throws {
        let node = try DERParser.parse([UInt8](hex: hex))
        #expect(throws: DERError.self) { try node.integerBytes() }
    }

    @Test func negativeIntegerIsNotUnsigned() throws {
        let node = try DERParser.parse([UInt8](hex: "02 01 ff"))
        #expect(try node.integerBytes() == [0xFF])
        #expect(throws: DERError.self) { try node.unsignedInteger() }
    }

    @Test func booleansMustBeCanonical() throws {
        #expect(try DERParser.parse([0x01, 0x01, 0xFF]).boolean() == true)
        #expect(try DERParser.parse([0x01, 0x01, 0x00]).boolean() == false)
        #expect(throws: DERError.self) { try DERParser.parse([0x01, 0x01, 0x01]).boolean() }
        #expect(DERWriter.encode(.boolean(true)) == [0x01, 0x01, 0xFF])
    }

    @Test func bitStringsCheckUnusedBits() throws {
        let keyUsage = try DERParser.parse([UInt8](hex: "03 02 01 06")).bitString()
        #expect(keyUsage.bytes == [0x06] && keyUsage.unusedBits == 1)
        #expect(throws: DERError.self) { try DERParser.parse([UInt8](hex: "03 02 01 07")).bitString() }
        #expect(throws: DERError.self) { try DERParser.parse([UInt8](hex: "03 01 03")).bitString() }
        #expect(throws: DERError.self) { try DERParser.parse([UInt8](hex: "03 02 08 00")).bitString() }
        #expect(throws: DERError.self) { try DERParser.parse([UInt8](hex: "03 02 01 06")).octetAlignedBitString() }
    }

    @Test func directoryStringsKeepTheirType() throws {
        let printable = try DERParser.parse([UInt8](hex: "13 03 41 42 43")).directoryString()
        #expect(printable.value == "ABC" && printable.kind == .printable)
        let utf8 = try DERParser.parse([UInt8](hex: "0c 02 c3 a9")).directoryString()
        #expect(utf8.value == "é" && utf8.kind == .utf8)
        // '*' is not a PrintableString character; 0xC3 is not IA5; lone 0xFF is not UTF-8.
        #expect(throws: DERError.self) { try DERParser.parse([UInt8](hex: "13 01 2a")).directoryString() }
        #expect(throws: DERError.self) { try DERParser.parse([UInt8](hex: "16 02 c3 a9")).directoryString() }
        #expect(throws: DERError.self) { try DERParser.parse([UInt8](hex: "0c 01 ff")).directoryString() }
    }

    @Test func nullHasNoContent() throws {
        #expect(throws: Never.self) { try DERParser.parse([0x05, 0x00]).null() }
        #expect(throws: DERError.self) { try DERParser.parse([0x05, 0x01, 0x00]).null() }
    }

    @Test func wrongTagIsNamed() throws {
        let node = try DERParser.parse([UInt8](hex: "04 01 00"))
        #expect(throws: DERError.unexpectedTag(expected: "INTEGER", found: .octetString)) { try node.integerBytes() }
    }
}
