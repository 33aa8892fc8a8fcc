// Matter Core §6.4.6.1 and 1.1 §11.17.6.5–6: before issuing a NOC, the commissioner checks that the CSRResponse
// answers our CSRNonce, is signed by the device's attestation key (the DAC's), and holds a self-signed CSR.
public enum NOCSRVerification {
    /// The verified signing request, whose public key the NOC certifies.
    /// - Parameters:
    ///   - attestationSignature: the raw ECDSA r ‖ s (64 octets) over nocsr_elements ‖ attestation challenge.
    ///   - csrNonce: the CSRNonce we sent.
    ///   - dacPublicKey: from the attested DAC (`AttestationFacts.dacPublicKey`).
    public static func verify(
        nocsrElements: [UInt8], attestationSignature: [UInt8], attestationChallenge: [UInt8],
        csrNonce: [UInt8], dacPublicKey: [UInt8]
    ) throws(AttestationError) -> CertificateSigningRequest {
        let elements = try NOCSRElements(tlv: nocsrElements)
        guard elements.csrNonce == csrNonce else {
            throw .nonceMismatch("CSR nonce")
        }
        guard
            verifyDeviceSignature(
                attestationSignature, over: nocsrElements + attestationChallenge, dacPublicKey: dacPublicKey)
        else {
            throw .attestationSignatureInvalid("NOCSR")
        }
        let request: CertificateSigningRequest
        do {
            request = try CertificateSigningRequest(derEncoded: elements.csr)
        } catch {
            throw .malformedSigningRequest(error)
        }
        do {
            try request.verifySignature()
        } catch {
            throw .signingRequestSignatureInvalid
        }
        return request
    }
}
