import MatterCertificates
import MatterCrypto
import Testing

@Suite struct CertificationDeclarationSigningKeyTests {
    /// Each built-in key and identifier equals the public key and subject key identifier of its published certificate.
    @Test func builtInKeysMatchTheirCertificates() throws {
        #expect(CertificationDeclarationSigningKey.builtIn.count == CHIPAttestationVectors.declarationSigners.count)
        for (key, signer) in zip(CertificationDeclarationSigningKey.builtIn, CHIPAttestationVectors.declarationSigners)
        {
            let certificate = try X509Certificate(derEncoded: signer.der)
            #expect(try certificate.subjectKeyIdentifier == key.keyIdentifier, "\(signer.name)")
            #expect(certificate.publicKey == key.publicKey, "\(signer.name)")
            #expect(key.isTestKey == (signer.name == "test"), "\(signer.name)")
            _ = try P256.PublicKey(x963Representation: key.publicKey)
        }
    }

    @Test func testPrivateKeyMatchesTheBuiltInTestKey() {
        #expect(
            AttestationTestSupport.testDeclarationSigningKey.publicKey.x963Representation
                == CertificationDeclarationSigningKey.test.publicKey)
    }
}
