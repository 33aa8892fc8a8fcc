import MatterCrypto

// Matter Core §6.2.3 steps on the AttestationResponse itself: our nonce, signed by the DAC's key.

/// The attestation_nonce must be the one we sent, so the response is fresh.
struct AttestationNoncePolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        evidence.elements.attestationNonce == evidence.nonce ? [] : [.nonceMismatch("attestation nonce")]
    }
}

/// The signature over attestation_elements ‖ attestation_challenge must verify with the DAC's key.
struct AttestationSignaturePolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        guard
            verifyDeviceSignature(
                evidence.attestationSignature, over: evidence.elementsTLV + evidence.attestationChallenge,
                dacPublicKey: evidence.dac.publicKey)
        else {
            return [.attestationSignatureInvalid("attestation")]
        }
        return []
    }
}

/// Whether a raw r ‖ s signature verifies with the DAC's public key.
func verifyDeviceSignature(_ signature: [UInt8], over message: [UInt8], dacPublicKey: [UInt8]) -> Bool {
    guard let key = try? P256.PublicKey(x963Representation: dacPublicKey),
        let parsed = try? P256.ECDSASignature(rawRepresentation: signature)
    else {
        return false
    }
    return key.isValidSignature(parsed, for: message)
}
