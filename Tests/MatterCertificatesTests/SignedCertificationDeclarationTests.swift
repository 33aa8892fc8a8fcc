import MatterCertificates
import MatterTLV
import Testing

@Suite struct SignedCertificationDeclarationTests {
    @Test func parsesConnectedhomeipExampleDeclaration() throws {
        let signed = try SignedCertificationDeclaration(derEncoded: CHIPAttestationVectors.certificationDeclaration)
        #expect(signed.signerKeyIdentifier == [UInt8](hex: "62fa823359acfaa9963e1cfa140addf504f37160"))
        let declaration = signed.declaration
        #expect(declaration.formatVersion == 1 && declaration.vendorID == 0xFFF1)
        #expect(declaration.productIDs == Array(0x8000...0x8063))
        #expect(declaration.deviceTypeID == 0x16 && declaration.certificateID == "ZIG20142ZB330003-24")
        #expect(
            declaration.securityLevel == 0 && declaration.securityInformation == 0
                && declaration.versionNumber == 0x2694)
        #expect(declaration.certificationType == .developmentAndTest)
        #expect(
            declaration.dacOriginVendorID == nil && declaration.dacOriginProductID == nil
                && declaration.authorizedPAAs == nil)
        // The content is the declaration's TLV as our writer encodes it, byte for byte.
        #expect(TLVWriter.encode(TLVElement(declaration.tlvValue())) == signed.content)
        #expect(signed.content.count == 0x15E)
    }

    @Test func parsesCircuitMatterDeclaration() throws {
        let declaration = try SignedCertificationDeclaration(derEncoded: CircuitMatterVectors.certificationDeclaration)
            .declaration
        #expect(declaration.vendorID == 0xFFF4 && declaration.productIDs == [0x1234])
        #expect(declaration.deviceTypeID == 22 && declaration.certificateID == "CSA00000SWC00000-00")
        #expect(declaration.certificationType == .developmentAndTest && declaration.versionNumber == 1)
    }

    @Test func signaturesVerifyWithTheTestKeyOnly() throws {
        for bytes in [CHIPAttestationVectors.certificationDeclaration, CircuitMatterVectors.certificationDeclaration] {
            let signed = try SignedCertificationDeclaration(derEncoded: bytes)
            try signed.verifySignature(publicKey: CertificationDeclarationSigningKey.test.publicKey)
            #expect(throws: CertificateError.signatureInvalid) {
                try signed.verifySignature(publicKey: CertificationDeclarationSigningKey.production[0].publicKey)
            }
        }
    }

    @Test func tamperedContentDoesNotVerify() throws {
        // Offset 75 is inside the eContent: the first product ID's low byte, 0x00 → 0x01 (0x8001 listed twice).
        var bytes = CHIPAttestationVectors.certificationDeclaration
        #expect(bytes[75] == 0x00 && bytes[76] == 0x80)
        bytes[75] = 0x01
        let signed = try SignedCertificationDeclaration(derEncoded: bytes)
        #expect(signed.declaration.productIDs.first == 0x8001)
        #expect(throws: CertificateError.signatureInvalid) {
            try signed.verifySignature(publicKey: CertificationDeclarationSigningKey.test.publicKey)
        }
    }

    @Test func builderEnvelopeRoundTrips() throws {
        let declaration = CertificationDeclaration(
            vendorID: 0xFFF1, productIDs: [0x8000], deviceTypeID: 0x0100, certificateID: "CSA00000SWC00000-02",
            versionNumber: 3, certificationType: .provisional, dacOriginVendorID: 0xFFF2, dacOriginProductID: 0x8002,
            authorizedPAAs: [[UInt8](repeating: 0xAB, count: 20)])
        let bytes = try AttestationTestSupport.envelope(
            declaration, signedBy: AttestationTestSupport.testDeclarationSigningKey,
            keyIdentifier: CertificationDeclarationSigningKey.test.keyIdentifier)
        let signed = try SignedCertificationDeclaration(derEncoded: bytes)
        #expect(signed.declaration == declaration)
        try signed.verifySignature(publicKey: CertificationDeclarationSigningKey.test.publicKey)
    }

    @Test func rejectsStructuresMatterDoesNotUse() throws {
        let declaration = CertificationDeclaration(
            vendorID: 1, productIDs: [], deviceTypeID: 1, certificateID: "x", versionNumber: 1,
            certificationType: .official)
        let noProducts = try AttestationTestSupport.envelope(
            declaration, signedBy: AttestationTestSupport.testDeclarationSigningKey, keyIdentifier: [1])
        #expect(throws: CertificateError.invalidField("product_id_array", reason: "0 product IDs, 1 to 100 allowed")) {
            try SignedCertificationDeclaration(derEncoded: noProducts)
        }
        // A ContentInfo of another type (id-data instead of id-signedData).
        let wrongType = DERWriter.encode(.sequence([.objectIdentifier(.cmsData), .explicit(0, .octetString([]))]))
        #expect(
            throws: CertificateError.unsupported(
                "CMS content type 1.2.840.113549.1.7.1; a certification declaration is id-signedData")
        ) {
            try SignedCertificationDeclaration(derEncoded: wrongType)
        }
        // A certification_type outside 0...2.
        var fields = declaration
        fields.productIDs = [1]
        guard case .structure(var members) = fields.tlvValue() else { Issue.record("not a structure"); return }
        members[8] = TLVElement(tag: .context(8), .unsigned(3))
        #expect(throws: TLVError.inField(8, .integerOutOfRange(value: "3", type: "certification_type (0, 1 or 2)"))) {
            try CertificationDeclaration(tlv: TLVElement(.structure(members)))
        }
    }
}
