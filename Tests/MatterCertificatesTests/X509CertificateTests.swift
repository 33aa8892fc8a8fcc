import MatterCertificates
import MatterTestSupport
import Testing

struct X509CertificateTests {
    @Test func decodesRoot01Fields() throws {
        let root = try X509Certificate(derEncoded: CHIPTestCertificates.root01DER)
        #expect(root.serialNumber == [UInt8](hex: "53 4c 45 82 73 62 35 14"))
        #expect(try root.issuer.rcacID == 0xCACA_CACA_0000_0001)
        #expect(root.subject == root.issuer)
        #expect(root.notBefore.description == "2020-10-15T14:23:43Z")
        #expect(root.notAfter.description == "2040-10-15T14:23:42Z")
        #expect(root.publicKey.prefix(3) == [0x04, 0x3B, 0x88])
        #expect(try root.basicConstraints == BasicConstraints(isCertificateAuthority: true))
        #expect(try root.keyUsage == [.keyCertSign, .cRLSign])
        #expect(try root.extendedKeyUsage == nil)
        let keyID = [UInt8](hex: "cc 13 08 af 82 cf ee 50 5e b2 3b 57 bf e8 6a 31 16 65 53 5f")
        #expect(try root.subjectKeyIdentifier == keyID)
        #expect(try root.authorityKeyIdentifier == keyID)
        #expect(root.extensions.map(\.isCritical) == [true, true, false, false])
    }

    @Test func decodesNodeIdentity() throws {
        let node = try X509Certificate(derEncoded: CHIPTestCertificates.node0101DER)
        #expect(try node.subject.nodeID == 0xDEDE_DEDE_0001_0001)
        #expect(try node.subject.fabricID == 0xFAB0_0000_0000_001D)
        #expect(try node.issuer.icacID == 0xCACA_CACA_0000_0003)
        #expect(try node.basicConstraints == BasicConstraints(isCertificateAuthority: false))
        #expect(try node.keyUsage == .digitalSignature)
        #expect(try node.extendedKeyUsage == [.clientAuth, .serverAuth])
    }

    @Test func chainSignaturesVerify() throws {
        let root = try X509Certificate(derEncoded: CHIPTestCertificates.root01DER)
        let intermediate = try X509Certificate(derEncoded: CHIPTestCertificates.ica01DER)
        let node = try X509Certificate(derEncoded: CHIPTestCertificates.node0101DER)
        try root.verifySignature(issuerPublicKey: root.publicKey)
        try intermediate.verifySignature(issuerPublicKey: root.publicKey)
        try node.verifySignature(issuerPublicKey: intermediate.publicKey)
        #expect(throws: CertificateError.signatureInvalid) { try node.verifySignature(issuerPublicKey: root.publicKey) }
    }

    @Test func testPAAParsesAndVerifiesItself() throws {
        let paa = try X509Certificate(derEncoded: TestPAA.noVIDDER)
        #expect(paa.subject.commonName == "Matter Test PAA")
        #expect(try paa.subject.vendorID == nil)
        #expect(paa.serialNumber == [UInt8](hex: "0b 8f ba a8 dd 86 ee"))
        #expect(paa.notAfter == .noWellDefinedExpiration)
        #expect(try paa.basicConstraints == BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 1))
        #expect(
            try paa.subjectKeyIdentifier == [UInt8](hex: "78 5c e7 05 b8 6b 8f 4e 6f c7 93 aa 60 cb 43 ea 69 68 82 d5"))
        try paa.verifySignature(issuerPublicKey: paa.publicKey)
        #expect(try paa.isValid(at: CertificateTime(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0)))
        #expect(try !paa.isValid(at: CertificateTime(year: 2021, month: 6, day: 28, hour: 14, minute: 23, second: 42)))
    }

    @Test func tamperedTBSFailsVerification() throws {
        var bytes = CHIPTestCertificates.root01DER
        // Byte 15 is inside the serial number, part of the signed tbsCertificate.
        bytes[15] ^= 0x01
        let tampered = try X509Certificate(derEncoded: bytes)
        #expect(throws: CertificateError.signatureInvalid) {
            try tampered.verifySignature(issuerPublicKey: tampered.publicKey)
        }
    }

    @Test func vendorAndProductIDsAreHex() throws {
        let name = DistinguishedName([
            .commonName("Matter Test DAC"), .matterVendorID(0xFFF1), .matterProductID(0x8000),
        ])
        #expect(name.attributes[1].value == "FFF1")
        #expect(try name.vendorID == 0xFFF1)
        #expect(try name.productID == 0x8000)
        let lowercase = DistinguishedName([DistinguishedName.Attribute(type: .matterVendorID, value: "fff1")])
        #expect(throws: CertificateError.self) { try lowercase.vendorID }
    }

    @Test func rejectsOtherAlgorithmsAndVersions() throws {
        // Root01 with its signature algorithm's last arc changed to ecdsa-with-SHA384 (…4.3.3) in both places.
        var bytes = CHIPTestCertificates.root01DER
        let sha256 = [UInt8](hex: "2a 86 48 ce 3d 04 03 02")
        for start in (0...(bytes.count - sha256.count)).reversed()
        where Array(bytes[start..<start + sha256.count]) == sha256 {
            bytes[start + sha256.count - 1] = 0x03
        }
        #expect(
            throws: CertificateError.unsupported(
                "signature algorithm 1.2.840.10045.4.3.3; Matter uses ecdsa-with-SHA256")
        ) {
            try X509Certificate(derEncoded: bytes)
        }
        var version1 = CHIPTestCertificates.root01DER
        version1[12] = 0x00  // a0 03 02 01 [02] → v1
        #expect(throws: CertificateError.unsupported("certificate version 1; Matter uses version 3")) {
            try X509Certificate(derEncoded: version1)
        }
    }

    @Test func truncatedCertificateNamesTheField() {
        let truncated = Array(CHIPTestCertificates.root01DER.prefix(100))
        #expect(throws: CertificateError.self) { try X509Certificate(derEncoded: truncated) }
        do {
            _ = try X509Certificate(derEncoded: truncated)
        } catch {
            #expect(error.description.hasPrefix("certificate: truncated"))
        }
    }
}
