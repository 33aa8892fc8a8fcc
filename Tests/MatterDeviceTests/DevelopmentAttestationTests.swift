import MatterCertificates
import MatterCrypto
import MatterDevice
import MatterNode
import MatterTLV
import Testing

struct DevelopmentAttestationTests {
    static let challenge = [UInt8](repeating: 0xC3, count: 16)
    static let nonce = [UInt8](repeating: 0x5A, count: 32)
    /// 2026-01-01T00:00:00Z.
    static let now: Int64 = 1_767_225_600

    static func verify(
        _ attestation: DevelopmentAttestation, developmentMode: Bool, vendorID: UInt16?, productID: UInt16?
    ) throws -> AttestationResult {
        let response = try attestation.attestationResponse(nonce: nonce, challenge: challenge)
        let verifier = DeviceAttestationVerifier(
            trustStore: PAATrustStore(certificates: [try X509Certificate(derEncoded: attestation.paa)]),
            developmentMode: developmentMode)
        return verifier.verify(
            dac: attestation.dac, pai: attestation.pai, attestationElements: response.elements,
            attestationSignature: response.signature, attestationChallenge: challenge, nonce: nonce,
            deviceVendorID: vendorID, deviceProductID: productID, now: now)
    }

    @Test func theGeneratedChainPassesOurVerifierInDevelopmentMode() throws {
        let attestation = try DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8001, deviceType: 0x0100)
        let result = try Self.verify(attestation, developmentMode: true, vendorID: 0xFFF1, productID: 0x8001)
        #expect(result.verdict == .trusted)
        #expect(result.facts?.vendorID == 0xFFF1)
        #expect(result.facts?.productID == 0x8001)
        #expect(result.facts?.declarationSignedWithTestKey == true)
        let declaration = try SignedCertificationDeclaration(derEncoded: attestation.certificationDeclaration)
        #expect(declaration.declaration.productIDs == [0x8001])
        #expect(declaration.declaration.deviceTypeID == 0x0100)
        #expect(declaration.declaration.certificationType == .developmentAndTest)
    }

    @Test func outsideDevelopmentModeTheTestSignedDeclarationIsRefused() throws {
        let attestation = try DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100)
        let result = try Self.verify(attestation, developmentMode: false, vendorID: 0xFFF1, productID: 0x8000)
        guard case .untrusted(let reasons) = result.verdict else {
            Issue.record("a test-signed declaration was trusted outside development mode")
            return
        }
        #expect(reasons == [.developmentDeclarationRefused("is signed with the CSA test key")])
    }

    @Test func anotherDevicesPAAIsNotTrusted() throws {
        let ours = try DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100)
        let theirs = try DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100)
        let mixed = DevelopmentAttestation(
            paa: theirs.paa, pai: ours.pai, dac: ours.dac, dacKey: ours.dacKey,
            certificationDeclaration: ours.certificationDeclaration)
        #expect(try Self.verify(mixed, developmentMode: true, vendorID: nil, productID: nil).verdict != .trusted)
    }

    /// The private key in the source (connectedhomeip's Chip-Test-CD-Signing-Key.pem) is the one whose public half
    /// MatterCertificates trusts as the CSA test key (Chip-Test-CD-Signing-Cert.pem).
    @Test func theEmbeddedTestSigningKeyMatchesTheBuiltInTestPublicKey() throws {
        let attestation = try DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100)
        let declaration = try SignedCertificationDeclaration(derEncoded: attestation.certificationDeclaration)
        #expect(declaration.signerKeyIdentifier == CertificationDeclarationSigningKey.test.keyIdentifier)
        try declaration.verifySignature(publicKey: CertificationDeclarationSigningKey.test.publicKey)
    }

    @Test func csrResponseCarriesANOCSRSignedByTheDAC() throws {
        let attestation = try DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100)
        let key = P256.PrivateKey()
        let response = try attestation.csrResponse(operationalKey: key, nonce: Self.nonce, challenge: Self.challenge)
        let dac = try X509Certificate(derEncoded: attestation.dac)
        let csr = try NOCSRVerification.verify(
            nocsrElements: response.elements, attestationSignature: response.signature,
            attestationChallenge: Self.challenge, csrNonce: Self.nonce, dacPublicKey: dac.publicKey)
        #expect(csr.publicKey == key.publicKey.x963Representation)
        #expect(throws: (any Error).self) {
            try NOCSRVerification.verify(
                nocsrElements: response.elements, attestationSignature: response.signature,
                attestationChallenge: [UInt8](repeating: 0, count: 16), csrNonce: Self.nonce,
                dacPublicKey: dac.publicKey)
        }
    }
}
