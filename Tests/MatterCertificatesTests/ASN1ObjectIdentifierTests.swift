import MatterCertificates
import MatterTestSupport
import Testing

struct ASN1ObjectIdentifierTests {
    // Encodings as they appear in the connectedhomeip and RFC 5758 certificates.
    @Test(arguments: [
        (ASN1ObjectIdentifier.ecdsaWithSHA256, "2a 86 48 ce 3d 04 03 02", "1.2.840.10045.4.3.2"),
        (.prime256v1, "2a 86 48 ce 3d 03 01 07", "1.2.840.10045.3.1.7"),
        (.matterNodeID, "2b 06 01 04 01 82 a2 7c 01 01", "1.3.6.1.4.1.37244.1.1"),
        (.domainComponent, "09 92 26 89 93 f2 2c 64 01 19", "0.9.2342.19200300.100.1.25"),
        (.basicConstraints, "55 1d 13", "2.5.29.19"),
    ])
    func encodesAndDecodes(oid: ASN1ObjectIdentifier, hex: String, dotted: String) throws {
        #expect(oid.derContents == [UInt8](hex: hex))
        #expect(try ASN1ObjectIdentifier(derContents: [UInt8](hex: hex)) == oid)
        #expect(oid.description == dotted)
    }

    @Test func jointISOITUArcAbove39() throws {
        // X.690 §8.19.5 example: {2 999 3} encodes as 88 37 03.
        let oid = try ASN1ObjectIdentifier(arcs: [2, 999, 3])
        #expect(oid.derContents == [0x88, 0x37, 0x03])
        #expect(try ASN1ObjectIdentifier(derContents: [0x88, 0x37, 0x03]) == oid)
    }

    @Test(arguments: ["", "2a 86", "2a 80 01", "2a ff ff ff ff ff ff ff ff ff 7f"])
    func rejectsMalformedContents(hex: String) {
        #expect(throws: DERError.self) { try ASN1ObjectIdentifier(derContents: [UInt8](hex: hex)) }
    }

    @Test func rejectsInvalidArcs() {
        #expect(throws: DERError.self) { try ASN1ObjectIdentifier(arcs: [1]) }
        #expect(throws: DERError.self) { try ASN1ObjectIdentifier(arcs: [3, 1]) }
        #expect(throws: DERError.self) { try ASN1ObjectIdentifier(arcs: [1, 40]) }
    }
}
