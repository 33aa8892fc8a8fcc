import MatterCertificates
import MatterCrypto
import Testing

@Suite struct NOCSRVerificationTests {
    typealias CM = CircuitMatterVectors

    private var dacPublicKey: [UInt8] { get throws { try X509Certificate(derEncoded: CM.dac).publicKey } }

    @Test func circuitMatterCSRResponseVerifies() throws {
        let request = try NOCSRVerification.verify(
            nocsrElements: CM.nocsrElements, attestationSignature: CM.nocsrSignature,
            attestationChallenge: CM.challenge, csrNonce: CM.csrNonce, dacPublicKey: dacPublicKey)
        #expect(request.derEncoded == (try NOCSRElements(tlv: CM.nocsrElements)).csr)
        // The verified key gets a NOC.
        let authority = try CertificateAuthority.root(
            signingKey: P256.PrivateKey(using: DeterministicRandom(seed: 1)), rcacID: 1, fabricID: 1,
            serialNumber: [1], notBefore: 0, notAfter: 0)
        let noc = try authority.issueOperational(
            for: request, nodeID: 2, fabricID: 1, serialNumber: [2], notBefore: 0, notAfter: 0)
        #expect(noc.publicKey == request.publicKey)
    }

    @Test func wrongNonceIsRefused() throws {
        #expect(throws: AttestationError.nonceMismatch("CSR nonce")) {
            try NOCSRVerification.verify(
                nocsrElements: CM.nocsrElements, attestationSignature: CM.nocsrSignature,
                attestationChallenge: CM.challenge, csrNonce: CM.nonce, dacPublicKey: dacPublicKey)
        }
    }

    @Test func signatureByAnotherKeyIsRefused() throws {
        let otherDAC = try X509Certificate(derEncoded: CHIPAttestationVectors.dac).publicKey
        #expect(throws: AttestationError.attestationSignatureInvalid("NOCSR")) {
            try NOCSRVerification.verify(
                nocsrElements: CM.nocsrElements, attestationSignature: CM.nocsrSignature,
                attestationChallenge: CM.challenge, csrNonce: CM.csrNonce, dacPublicKey: otherDAC)
        }
    }

    @Test func csrWhoseOwnSignatureFailsIsRefused() throws {
        // CircuitMatter's CSR with its subject changed from O=CSA to O=CSB, then signed as NOCSR by connectedhomeip's DAC.
        var csr = try NOCSRElements(tlv: CM.nocsrElements).csr
        let index = try #require(csr.firstRange(of: Array("CSA".utf8))?.lowerBound)
        csr[index + 2] = UInt8(ascii: "B")
        let elements = NOCSRElements(csr: csr, csrNonce: CM.csrNonce).tlvEncoded
        let device = AttestationTestSupport.CHIPDevice()
        let signature = try device.signature(over: elements)
        #expect(throws: AttestationError.signingRequestSignatureInvalid) {
            try NOCSRVerification.verify(
                nocsrElements: elements, attestationSignature: signature, attestationChallenge: device.challenge,
                csrNonce: CM.csrNonce,
                dacPublicKey: try X509Certificate(derEncoded: CHIPAttestationVectors.dac).publicKey)
        }
    }
}
