import MatterCertificates
import MatterCrypto
import Testing

struct CertificateAuthorityTests {
    private static let fabricID: UInt64 = 0xFAB0_0000_0000_001D
    // 2020-10-15T14:23:43Z and 2040-10-15T14:23:42Z, as in the connectedhomeip test certificates.
    private static let notBefore: UInt32 = 0x271B_17EF
    private static let notAfter: UInt32 = 0x4CB9_B56E

    private func makeRoot(seed: UInt64 = 1) throws -> CertificateAuthority {
        try CertificateAuthority.root(
            signingKey: P256.PrivateKey(using: DeterministicRandom(seed: seed)), rcacID: 0xCACA_CACA_0000_0001,
            fabricID: Self.fabricID,
            serialNumber: [0x01], notBefore: Self.notBefore, notAfter: Self.notAfter)
    }

    /// The properties every issued certificate must have: both forms agree and the signature holds over DER rebuilt from TLV.
    private func checkExactForms(_ certificate: MatterCertificate, issuerPublicKey: [UInt8]) throws -> X509Certificate {
        let tlv = try certificate.tlvEncoded()
        let der = try MatterCertificate(tlv: tlv).x509DER()
        #expect(try MatterCertificate(x509DER: der).tlvEncoded() == tlv)
        let x509 = try X509Certificate(derEncoded: der)
        try x509.verifySignature(issuerPublicKey: issuerPublicKey)
        return x509
    }

    @Test func rootIsSelfSigned() throws {
        let root = try makeRoot()
        let x509 = try checkExactForms(root.certificate, issuerPublicKey: root.certificate.publicKey)
        #expect(try x509.subject.rcacID == 0xCACA_CACA_0000_0001)
        #expect(try x509.subject.fabricID == Self.fabricID)
        #expect(x509.issuer == x509.subject)
        #expect(try x509.basicConstraints == BasicConstraints(isCertificateAuthority: true))
        #expect(try x509.keyUsage == [.keyCertSign, .cRLSign])
        #expect(try x509.subjectKeyIdentifier == x509.authorityKeyIdentifier)
        #expect(x509.extensions.map(\.isCritical) == [true, true, false, false])
        #expect(x509.notBefore.description == "2020-10-15T14:23:43Z")
        // OpenSSL-independent cross-check: the key identifier is SHA-256(key) truncated (RFC 7093).
        #expect(try x509.subjectKeyIdentifier == Array(SHA256.hash(x509.publicKey).prefix(20)))
    }

    @Test func chainRootIntermediateNode() throws {
        let root = try makeRoot()
        let intermediateKey = P256.PrivateKey(using: DeterministicRandom(seed: 2))
        let icac = try root.issueIntermediate(
            publicKey: intermediateKey.publicKey.x963Representation, icacID: 0xCACA_CACA_0000_0003,
            fabricID: Self.fabricID,
            serialNumber: [0x02], notBefore: Self.notBefore, notAfter: Self.notAfter)
        let icacX509 = try checkExactForms(icac, issuerPublicKey: root.certificate.publicKey)
        #expect(try icacX509.issuer.rcacID == 0xCACA_CACA_0000_0001)
        #expect(try icacX509.authorityKeyIdentifier == root.certificate.subjectKeyIdentifier)

        let intermediate = try CertificateAuthority(certificate: icac, signingKey: intermediateKey)
        let nodeKey = P256.PrivateKey(using: DeterministicRandom(seed: 3))
        let noc = try intermediate.issueOperational(
            publicKey: nodeKey.publicKey.x963Representation, nodeID: 0xDEDE_DEDE_0001_0001, fabricID: Self.fabricID,
            caseAuthenticatedTags: [0xABCD_0001], serialNumber: [0x03], notBefore: Self.notBefore, notAfter: 0)
        let nocX509 = try checkExactForms(noc, issuerPublicKey: intermediateKey.publicKey.x963Representation)
        #expect(try nocX509.subject.nodeID == 0xDEDE_DEDE_0001_0001)
        #expect(try nocX509.subject.caseAuthenticatedTags == [0xABCD_0001])
        #expect(try nocX509.issuer.icacID == 0xCACA_CACA_0000_0003)
        #expect(try nocX509.basicConstraints == BasicConstraints(isCertificateAuthority: false))
        #expect(try nocX509.keyUsage == .digitalSignature)
        #expect(try nocX509.extendedKeyUsage == [.clientAuth, .serverAuth])
        #expect(nocX509.notAfter == .noWellDefinedExpiration)
        #expect(throws: CertificateError.signatureInvalid) {
            try nocX509.verifySignature(issuerPublicKey: root.certificate.publicKey)
        }
    }

    @Test func nocFromAVerifiedRequest() throws {
        let root = try makeRoot()
        let request = try CertificateSigningRequest(derEncoded: CertificateSigningRequestTests.openSSLRequest)
        let noc = try root.issueOperational(
            for: request, nodeID: 0x1234, fabricID: Self.fabricID,
            serialNumber: [0x04], notBefore: Self.notBefore, notAfter: Self.notAfter)
        #expect(noc.publicKey == request.publicKey)
        _ = try checkExactForms(noc, issuerPublicKey: root.certificate.publicKey)

        var altered = CertificateSigningRequestTests.openSSLRequest
        altered[22] ^= 0x20
        #expect(throws: CertificateError.signatureInvalid) {
            try root.issueOperational(
                for: CertificateSigningRequest(derEncoded: altered), nodeID: 0x1234, fabricID: Self.fabricID,
                serialNumber: [0x05], notBefore: Self.notBefore, notAfter: Self.notAfter)
        }
    }

    @Test func refusesBadInputs() throws {
        let root = try makeRoot()
        let key = P256.PrivateKey(using: DeterministicRandom(seed: 4)).publicKey.x963Representation
        #expect(throws: CertificateError.self) {
            try root.issueOperational(
                publicKey: key, nodeID: 1, fabricID: 1, serialNumber: [0x00, 0x01], notBefore: 0, notAfter: 0)
        }
        #expect(throws: CertificateError.self) {
            try root.issueOperational(
                publicKey: key, nodeID: 1, fabricID: 1, serialNumber: [0x80], notBefore: 0, notAfter: 0)
        }
        #expect(throws: CertificateError.self) {
            try root.issueOperational(
                publicKey: key, nodeID: 1, fabricID: 1, caseAuthenticatedTags: [0xABCD_0000],
                serialNumber: [0x01], notBefore: 0, notAfter: 0)
        }
        var notOnCurve = key
        notOnCurve[64] ^= 0x01
        #expect(throws: CertificateError.self) {
            try root.issueOperational(
                publicKey: notOnCurve, nodeID: 1, fabricID: 1, serialNumber: [0x01], notBefore: 0, notAfter: 0)
        }
        let otherKey = P256.PrivateKey(using: DeterministicRandom(seed: 5))
        #expect(
            throws: CertificateError.invalidField("signingKey", reason: "does not match the certificate's public key")
        ) {
            try CertificateAuthority(certificate: root.certificate, signingKey: otherKey)
        }
    }

    @Test func randomSerialNumbersArePositiveAndMinimal() throws {
        let random = DeterministicRandom(seed: 9)
        for _ in 0..<100 {
            let serial = CertificateAuthority.randomSerialNumber(using: random)
            #expect(serial.count == 8)
            #expect(serial[0] >= 0x01 && serial[0] <= 0x7F)
        }
    }
}
