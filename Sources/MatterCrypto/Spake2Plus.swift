/// Matter Core §3.10 SPAKE2+ (draft-bar-cfrg-spake2plus-01) over P-256 with SHA-256, HKDF and HMAC.
public enum Spake2Plus {
    /// Matter Core §3.10: w0s ‖ w1s = PBKDF2(passcode as 4-byte little-endian, salt, iterations, 2 × 40 bytes);
    /// w0 = w0s mod n, w1 = w1s mod n, each 32 bytes big-endian.
    public static func computeW0W1(
        passcode: UInt32, salt: [UInt8], iterations: Int
    ) throws(CryptoError) -> (w0: [UInt8], w1: [UInt8]) {
        let (w0, w1) = try computeW0(passcode: passcode, salt: salt, iterations: iterations)
        return (w0, try w1.value())
    }

    /// w0 now, and w1 while it is derived on another core: w0s takes PBKDF2's first two blocks, w1s the rest of the
    /// second and the third, and the prover needs w1 only once the verifier's share has arrived, so the commissioner
    /// sends Pake1 while the third block is derived.
    public static func computeW0(
        passcode: UInt32, salt: [UInt8], iterations: Int
    ) throws(CryptoError) -> (w0: [UInt8], w1: PendingScalar) {
        let password = (0..<4).map { UInt8(truncatingIfNeeded: passcode >> (8 * $0)) }
        let seedLength = CryptoConstants.spake2PlusWSeedLength
        let blockLength = PBKDF2SHA256.blockLength
        let blockCount = (2 * seedLength + blockLength - 1) / blockLength
        let w0Blocks = (seedLength + blockLength - 1) / blockLength
        let leading = Array(
            try PBKDF2SHA256.blocks(1...w0Blocks, password: password, salt: salt, iterations: iterations).joined())
        let w0 = try reduce(Array(leading.prefix(seedLength)))
        let w1 = PendingScalar { () throws(CryptoError) -> [UInt8] in
            let trailing = try PBKDF2SHA256.blocks(
                (w0Blocks + 1)...blockCount, password: password, salt: salt, iterations: iterations
            ).joined()
            return try reduce(Array((leading.dropFirst(seedLength) + trailing).prefix(seedLength)))
        }
        return (w0, w1)
    }

    /// A 40-byte seed reduced mod n, as a 32-byte big-endian scalar.
    private static func reduce(_ seed: [UInt8]) throws(CryptoError) -> [UInt8] {
        try P256Group().reduce(seed).bytes(length: CryptoConstants.p256ScalarLength)
    }

    /// The verifier a commissionee stores instead of its passcode: w0 and L = w1·P.
    public static func verifierData(
        passcode: UInt32, salt: [UInt8], iterations: Int
    ) throws(CryptoError) -> Spake2PlusVerifierData {
        let (w0, w1) = try computeW0W1(passcode: passcode, salt: salt, iterations: iterations)
        let group = try P256Group()
        let l = try group.x963(group.multiply(generatorBy: group.reduce(w1)))
        return try Spake2PlusVerifierData(w0: w0, l: l)
    }

    /// draft-bar-cfrg-spake2plus-01 §4 fixed point M for P-256 (SEC 1 compressed).
    static let pointM: [UInt8] = [
        0x02, 0x88, 0x6e, 0x2f, 0x97, 0xac, 0xe4, 0x6e, 0x55, 0xba, 0x9d, 0xd7, 0x24, 0x25, 0x79, 0xf2, 0x99,
        0x3b, 0x64, 0xe1, 0x6e, 0xf3, 0xdc, 0xab, 0x95, 0xaf, 0xd4, 0x97, 0x33, 0x3d, 0x8f, 0xa1, 0x2f,
    ]
    /// draft-bar-cfrg-spake2plus-01 §4 fixed point N for P-256 (SEC 1 compressed).
    static let pointN: [UInt8] = [
        0x03, 0xd8, 0xbb, 0xd6, 0xc6, 0x39, 0xc6, 0x29, 0x37, 0xb0, 0x4d, 0x99, 0x7f, 0x38, 0xc3, 0x77, 0x07,
        0x19, 0xc6, 0x29, 0xd7, 0x01, 0x4d, 0x49, 0xa2, 0x4b, 0x4f, 0x98, 0xba, 0xa1, 0x29, 0x2b, 0x49,
    ]
}

/// draft-bar-cfrg-spake2plus-01 §3.3–3.4 key schedule: transcript TT, Ka ‖ Ke = Hash(TT),
/// KcA ‖ KcB = HKDF(nil, Ka, "ConfirmationKeys"), cA = HMAC(KcA, Y), cB = HMAC(KcB, X).
struct Spake2PlusKeySchedule {
    let ka: [UInt8]
    let ke: [UInt8]
    let kcA: [UInt8]
    let kcB: [UInt8]
    let confirmP: [UInt8]
    let confirmV: [UInt8]

    init(transcript: Spake2PlusTranscript) throws(CryptoError) {
        let x = transcript.shareP
        let y = transcript.shareV
        let digest = SHA256.hash(transcript.bytes)
        let half = digest.count / 2
        ka = Array(digest.prefix(half))
        ke = Array(digest.suffix(half))
        let confirmationKeys = try HKDFSHA256.deriveKey(
            inputKeyMaterial: ka, salt: [], info: Array("ConfirmationKeys".utf8), outputLength: 2 * half)
        kcA = Array(confirmationKeys.prefix(half))
        kcB = Array(confirmationKeys.suffix(half))
        confirmP = HMACSHA256.authenticationCode(key: kcA, message: y)
        confirmV = HMACSHA256.authenticationCode(key: kcB, message: x)
    }
}

/// draft-bar-cfrg-spake2plus-01 §3.3 transcript: each field preceded by its length as 8 bytes little-endian.
struct Spake2PlusTranscript {
    let shareP: [UInt8]
    let shareV: [UInt8]
    let bytes: [UInt8]

    init(
        context: [UInt8], proverIdentity: [UInt8], verifierIdentity: [UInt8], group: P256Group,
        shareP: [UInt8], shareV: [UInt8], z: [UInt8], v: [UInt8], w0: [UInt8]
    ) throws(CryptoError) {
        let m = try group.x963(group.point(encoded: Spake2Plus.pointM))
        let n = try group.x963(group.point(encoded: Spake2Plus.pointN))
        var bytes: [UInt8] = []
        for field in [context, proverIdentity, verifierIdentity, m, n, shareP, shareV, z, v, w0] {
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(field.count) >> (8 * $0)) }
            bytes += field
        }
        self.shareP = shareP
        self.shareV = shareV
        self.bytes = bytes
    }
}
