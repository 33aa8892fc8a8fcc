import MatterTestSupport
import Testing

@testable import MatterCertificates

struct DERParserTests {
    @Test func parsesNestedStructureAndReencodesExactly() throws {
        // SEQUENCE { INTEGER 5, [0] EXPLICIT { BOOLEAN TRUE }, OCTET STRING 01 02 }
        let bytes = [UInt8](hex: "30 0c 02 01 05 a0 03 01 01 ff 04 02 01 02")
        let node = try DERParser.parse(bytes)
        #expect(node.tag == .sequence)
        #expect(node.members.count == 3)
        #expect(try node.members[0].unsignedInteger() == 5)
        #expect(node.members[1].tag == .contextSpecific(0, constructed: true))
        #expect(try node.members[1].members[0].boolean() == true)
        #expect(try node.members[2].octetString() == [1, 2])
        #expect(DERWriter.encode(node) == bytes)
    }

    @Test func longFormLengthAndHighTagNumberRoundTrip() throws {
        // [APPLICATION 200] primitive (0x5f 0x81 0x48) with a 200-byte body (length 0x81 0xc8).
        let bytes = [0x5F, 0x81, 0x48, 0x81, 0xC8] + [UInt8](repeating: 0xAB, count: 200)
        let node = try DERParser.parse(bytes)
        #expect(node.tag == DERTag(.application, number: 200, constructed: false))
        #expect(DERWriter.encode(node) == bytes)
    }

    @Test(arguments: [
        ("30 80 00 00", DERError.indefiniteLength(offset: 1)),
        ("04 81 05 0102030405", DERError.nonMinimalLength(offset: 1)),
        ("04 82 0080" + String(repeating: "00", count: 128), DERError.nonMinimalLength(offset: 1)),
        ("04 85 0000000001 00", DERError.lengthTooLong(octets: 5, offset: 1)),
        ("04 05 010203", DERError.truncated(needed: 5, offset: 2, remaining: 3)),
        ("30 03 02 01", DERError.truncated(needed: 3, offset: 2, remaining: 2)),
        ("30 02 02 01", DERError.truncated(needed: 1, offset: 4, remaining: 0)),
        ("1f 1e 00", DERError.nonMinimalTagNumber(offset: 0)),
        ("1f 80 21 00", DERError.nonMinimalTagNumber(offset: 0)),
        ("1f ff ff ff ff 7f 00", DERError.tagNumberTooLarge(offset: 0)),
        ("05 00 00", DERError.trailingBytes(offset: 2, count: 1)),
        ("", DERError.truncated(needed: 1, offset: 0, remaining: 0)),
    ])
    func rejectsWhatDERForbids(hex: String, expected: DERError) {
        #expect(throws: expected) { try DERParser.parse([UInt8](hex: hex)) }
    }

    @Test func limitsNesting() {
        let depth = CertificateLimits.maximumDERDepth + 1
        var bytes: [UInt8] = [0x05, 0x00]
        for _ in 0..<depth {
            bytes = [0x30, UInt8(bytes.count)] + bytes
        }
        #expect(
            throws: DERError.nestingTooDeep(
                limit: CertificateLimits.maximumDERDepth, offset: 2 * CertificateLimits.maximumDERDepth)
        ) {
            try DERParser.parse(bytes)
        }
        #expect(throws: Never.self) { try DERParser.parse(Array(bytes.dropFirst(2))) }
    }

    @Test func errorMessagesSayWhatAndWhere() {
        #expect(
            DERError.truncated(needed: 4, offset: 12, remaining: 2).description
                == "truncated: needed 4 bytes at offset 12, 2 left")
        #expect(
            DERError.unexpectedTag(expected: "INTEGER", found: .sequence).description
                == "expected INTEGER, found SEQUENCE")
        #expect(DERTag.contextSpecific(3, constructed: true).description == "[3] (constructed)")
    }
}
