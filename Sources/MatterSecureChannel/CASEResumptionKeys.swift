import MatterCrypto

// Matter Core §4.14.2.2.1 / §4.14.2.5: the resumption MICs and the resumed session's keys, all derived from
// the record's shared secret and salted with initiatorRandom ‖ a resumption ID.
enum CASEResumptionKeys {
    /// initiatorResumeMIC of Sigma1: S1RK over (initiatorRandom ‖ the record's ID), "Sigma1_Resume".
    static func sigma1MIC(
        sharedSecret: [UInt8], initiatorRandom: [UInt8], resumptionID: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try mic(
            sharedSecret: sharedSecret, salt: initiatorRandom + resumptionID,
            info: SecureChannelLimits.sigma1ResumeInfo, nonce: SecureChannelLimits.sigma1ResumeNonce)
    }

    /// sigma2ResumeMIC of Sigma2Resume: S2RK over (initiatorRandom ‖ the new ID), "Sigma2_Resume".
    static func sigma2MIC(
        sharedSecret: [UInt8], initiatorRandom: [UInt8], newResumptionID: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try mic(
            sharedSecret: sharedSecret, salt: initiatorRandom + newResumptionID,
            info: SecureChannelLimits.sigma2ResumeInfo, nonce: SecureChannelLimits.sigma2ResumeNonce)
    }

    /// The resumed session's keys: salted with the ID Sigma1 offered (as connectedhomeip and matter.js do).
    static func sessionKeys(
        sharedSecret: [UInt8], initiatorRandom: [UInt8], offeredResumptionID: [UInt8]
    ) throws(CryptoError) -> SessionKeys {
        try SessionKeys(
            sharedSecret: sharedSecret, salt: initiatorRandom + offeredResumptionID, info: SessionKeys.resumptionInfo)
    }

    /// An AES-CCM tag over empty plaintext proves knowledge of the key without sending anything else.
    private static func mic(
        sharedSecret: [UInt8], salt: [UInt8], info: [UInt8], nonce: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let key = try HKDFSHA256.deriveKey(
            inputKeyMaterial: sharedSecret, salt: salt, info: info, outputLength: AESCCM.keyLength)
        return try AESCCM.seal(key: key, nonce: nonce, plaintext: [], additionalData: [])
    }

    /// Compares in time independent of where the first difference lies.
    static func matches(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
