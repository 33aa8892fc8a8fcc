// Every limit and constant of session establishment, with where it comes from.
public enum SecureChannelLimits {
    /// §4.14.1.1: PBKDF2 iterations a device may ask for; fewer is weak, more stalls small commissioners.
    static let pbkdfIterations: ClosedRange<UInt32> = 1_000...100_000
    /// §4.14.1.1: salt length in bytes.
    static let pbkdfSaltLength: ClosedRange<Int> = 16...32
    /// §4.14.1.2: initiatorRandom and responderRandom are 32 bytes.
    static let randomLength = 32
    /// §3.10: an uncompressed P-256 point, the SPAKE2+ shares pA and pB.
    static let shareLength = 65
    /// §3.10: HMAC-SHA256 confirmations cA and cB.
    static let confirmationLength = 32
    /// §4.14.1.3: the SPAKE2+ context is SHA-256 over this prefix and both PBKDF messages.
    static let paseContextPrefix = Array("CHIP PAKE V1 Commissioning".utf8)
}

extension SecureChannelLimits {
    /// §4.14.2.3: the AES-CCM nonces that encrypt TBEData2 and TBEData3.
    static let sigma2Nonce = Array("NCASE_Sigma2N".utf8)
    static let sigma3Nonce = Array("NCASE_Sigma3N".utf8)
    /// §4.14.2.3: a resumption ID is 16 bytes.
    static let resumptionIDLength = 16
    /// Session IDs we hand out. 0 is the unsecured session; IDs below 0x100 are avoided because some devices
    /// (CircuitMatter) hash a re-encoding of Sigma1 that writes the session ID as 2 bytes, so a 1-byte ID
    /// would make both sides disagree on the transcript.
    public static let sessionIDs: ClosedRange<UInt16> = 0x0100...0xFFFF
}

extension SecureChannelLimits {
    /// §4.14.2.2.1: HKDF info strings of S1RK and S2RK and the nonces of their MICs.
    static let sigma1ResumeInfo = Array("Sigma1_Resume".utf8)
    static let sigma2ResumeInfo = Array("Sigma2_Resume".utf8)
    static let sigma1ResumeNonce = Array("NCASE_SigmaS1".utf8)
    static let sigma2ResumeNonce = Array("NCASE_SigmaS2".utf8)
    /// A responder keeps this many resumption records per fabric: enough for a hub and a few admins
    /// reconnecting, small enough that a peer cycling node IDs cannot grow the table.
    public static let resumptionRecordsPerFabric = 8
}
