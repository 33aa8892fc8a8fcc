import MatterCertificates
import MatterTestSupport
import Testing

struct MatterCertificateTests {
    @Test(arguments: try CHIPTestCertificates.all)
    func tlvConvertsToThePublishedDER(vector: CertificateVector) throws {
        let certificate = try MatterCertificate(tlv: vector.tlv)
        #expect(try certificate.x509DER() == vector.der)
    }

    @Test(arguments: try CHIPTestCertificates.all)
    func derConvertsToThePublishedTLV(vector: CertificateVector) throws {
        let certificate = try MatterCertificate(x509DER: vector.der)
        #expect(try certificate.tlvEncoded() == vector.tlv)
    }

    @Test(arguments: try CHIPTestCertificates.all)
    func signatureVerifiesAfterTheTLVRoundTrip(vector: CertificateVector) throws {
        let certificate = try MatterCertificate(tlv: vector.tlv)
        try certificate.verifySignature(issuerPublicKey: vector.issuerPublicKey)
        try X509Certificate(derEncoded: certificate.x509DER()).verifySignature(issuerPublicKey: vector.issuerPublicKey)
    }

    @Test func decodesNode01Fields() throws {
        let node = try MatterCertificate(tlv: CHIPTestCertificates.node0101TLV)
        #expect(node.serialNumber == [UInt8](hex: "18 e9 69 ba 0e 08 9e 23"))
        #expect(node.notBefore == 0x271B_17EF)
        #expect(node.notAfter == 0x4CB9_B56E)
        #expect(
            node.subject
                == DistinguishedName([.matterNodeID(0xDEDE_DEDE_0001_0001), .matterFabricID(0xFAB0_0000_0000_001D)]))
        #expect(node.issuer == DistinguishedName([.matterICACID(0xCACA_CACA_0000_0003)]))
        #expect(node.basicConstraints == BasicConstraints(isCertificateAuthority: false))
        #expect(node.keyUsage == .digitalSignature)
        #expect(node.extendedKeyUsage == [.clientAuth, .serverAuth])
        #expect(
            node.authorityKeyIdentifier == [UInt8](hex: "44 0c c6 92 31 c4 cb 5b 37 94 24 26 f8 1b be 24 b7 ef 34 5c"))
    }

    @Test func noExpirationIsZero() throws {
        let root = try MatterCertificate(tlv: CHIPTestCertificates.root03TLV)
        #expect(root.notAfter == 0)
        #expect(try X509Certificate(derEncoded: root.x509DER()).notAfter == .noWellDefinedExpiration)
    }

    @Test func commonNameAndPrintableStringFlag() throws {
        let firmware = try MatterCertificate(tlv: CHIPTestCertificates.fwSign01TLV)
        #expect(firmware.subject.commonName == "FW SIGN CERT 01")
        #expect(firmware.subject.attributes[1].kind == .utf8)

        var printable = firmware
        printable.subject.attributes[1].kind = .printable
        let tlv = try printable.tlvEncoded()
        // Common name is tag 1; as a PrintableString it is tag 0x81 (Matter Core §6.5.6.1).
        #expect(tlv.contains(subsequence: [0x2C, 0x81, 0x0F]))
        let decoded = try MatterCertificate(tlv: tlv)
        #expect(decoded.subject.attributes[1].kind == .printable)
        #expect(try X509Certificate(derEncoded: decoded.x509DER()).subject.attributes[1].kind == .printable)
    }

    @Test func testPAAConvertsExactly() throws {
        let paa = try MatterCertificate(x509DER: TestPAA.noVIDDER)
        #expect(paa.notAfter == 0)
        #expect(try MatterCertificate(tlv: paa.tlvEncoded()).x509DER() == TestPAA.noVIDDER)
        try paa.verifySignature(issuerPublicKey: paa.publicKey)
    }

    @Test func unknownExtensionsTravelAsFutureExtensions() throws {
        var root = try MatterCertificate(tlv: CHIPTestCertificates.root01TLV)
        // A non-critical extension 1.2.3.4 with an OCTET STRING value 05 00.
        let encoded = [UInt8](hex: "30 09 06 03 2a 03 04 04 02 05 00")
        root.extensions.append(.futureExtension(encoded))
        let der = try root.x509DER()
        let x509 = try X509Certificate(derEncoded: der)
        #expect(
            x509.extensions.last
                == X509Extension(
                    identifier: try ASN1ObjectIdentifier(arcs: [1, 2, 3, 4]), isCritical: false, value: [0x05, 0x00]))
        let back = try MatterCertificate(x509DER: der)
        #expect(back.extensions.last == .futureExtension(encoded))
        #expect(try MatterCertificate(tlv: back.tlvEncoded()) == root)
    }

    @Test func refusesX509ThatTLVCannotCarryExactly() throws {
        // Node01_01 with its first subject attribute's UTF8String tag (0x0c) turned into PrintableString (0x13):
        // still hex digits, so it parses, but the Matter node ID attribute must be a UTF8String.
        var bytes = CHIPTestCertificates.node0101DER
        let nodeIDValue = [UInt8](hex: "0c 10 44 45 44 45")
        let start = try #require(
            (0...(bytes.count - nodeIDValue.count)).first { Array(bytes[$0..<$0 + nodeIDValue.count]) == nodeIDValue })
        bytes[start] = 0x13
        #expect(
            throws: CertificateError.notMatterEncodable(
                "subject attribute 1.3.6.1.4.1.37244.1.1 is not a UTF8String of 16 uppercase hex digits")
        ) {
            try MatterCertificate(x509DER: bytes)
        }
    }

    @Test func rejectsMalformedTLV() throws {
        var wrongCurve = CHIPTestCertificates.root01TLV
        // "24 08 01" is ec-curve-id 1; make it 2.
        let curve = try #require(
            (0..<(wrongCurve.count - 2)).first { Array(wrongCurve[$0..<$0 + 3]) == [0x24, 0x08, 0x01] })
        wrongCurve[curve + 2] = 0x02
        #expect(throws: CertificateError.unsupported("ec-curve-id 2; Matter defines only 1")) {
            try MatterCertificate(tlv: wrongCurve)
        }

        var missingSignature = CHIPTestCertificates.root01TLV
        // The signature element is 67 bytes (30 0b 40 + 64) before the closing 18.
        missingSignature.removeSubrange((missingSignature.count - 68)..<(missingSignature.count - 1))
        #expect(
            throws: CertificateError.invalidField("signature", reason: "missing: expected context tag 11 at member 10")
        ) {
            try MatterCertificate(tlv: missingSignature)
        }
        #expect(throws: CertificateError.self) {
            try MatterCertificate(tlv: Array(CHIPTestCertificates.root01TLV.dropLast()))
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<$0 + subsequence.count]) == subsequence }
    }
}
