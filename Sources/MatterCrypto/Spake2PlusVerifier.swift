/// Matter Core §3.10 SPAKE2+ verifier (the commissionee in PASE): answers X with Y and cB, then checks cA.
public struct Spake2PlusVerifier: Sendable {
    private let context: [UInt8]
    private let proverIdentity: [UInt8]
    private let verifierIdentity: [UInt8]
    private let verifierData: Spake2PlusVerifierData
    private let y: [UInt8]
    /// Y = y·P + w0·N, 65 bytes uncompressed (pB in PASE).
    public let shareV: [UInt8]
    /// Set by `respond(shareP:)`: the cA to expect and the key it unlocks.
    private var expected: (confirmP: [UInt8], sharedKey: [UInt8])?

    /// Matter uses empty prover and verifier identities; `context` is the PASE transcript hash.
    public init(context: [UInt8], verifierData: Spake2PlusVerifierData, random: some RandomSource) throws(CryptoError) {
        let y = try P256Group().randomScalar(using: random).bytes(length: CryptoConstants.p256ScalarLength)
        try self.init(context: context, proverIdentity: [], verifierIdentity: [], verifierData: verifierData, y: y)
    }

    /// Fixes the ephemeral scalar y and the identities, so published vectors can be replayed.
    init(
        context: [UInt8], proverIdentity: [UInt8], verifierIdentity: [UInt8], verifierData: Spake2PlusVerifierData,
        y: [UInt8]
    ) throws(CryptoError) {
        let group = try P256Group()
        shareV = try group.x963(
            group.multiply(
                generatorBy: group.scalar(y), point: group.point(encoded: Spake2Plus.pointN),
                by: group.scalar(verifierData.w0)))
        self.context = context
        self.proverIdentity = proverIdentity
        self.verifierIdentity = verifierIdentity
        self.verifierData = verifierData
        self.y = y
    }

    /// Takes X (pA); throws `.invalidPoint` for a bad X. Returns Y and cB to send.
    public mutating func respond(shareP: [UInt8]) throws(CryptoError) -> (shareV: [UInt8], confirmV: [UInt8]) {
        let schedule = try keySchedule(shareP: shareP)
        expected = (schedule.confirmP, schedule.ke)
        return (shareV, schedule.confirmV)
    }

    /// Takes cA; throws `.authenticationFailure` when it does not match (a wrong passcode). Returns the shared key Ke.
    public func finish(confirmP: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let expected else { throw .outOfOrder("finish(confirmP:) called before respond(shareP:)") }
        guard constantTimeEqual(expected.confirmP, confirmP) else { throw .authenticationFailure }
        return expected.sharedKey
    }

    /// Z = y·(X − w0·M), V = y·L, then the shared key schedule.
    func keySchedule(shareP: [UInt8]) throws(CryptoError) -> Spake2PlusKeySchedule {
        let group = try P256Group()
        let x = try group.point(x963: shareP)
        let yScalar = try group.scalar(y)
        let w0M = try group.multiply(
            generatorBy: nil, point: group.point(encoded: Spake2Plus.pointM), by: group.scalar(verifierData.w0))
        let unblinded = try group.subtract(x, w0M)
        let z = try group.x963(group.multiply(generatorBy: nil, point: unblinded, by: yScalar))
        let v = try group.x963(group.multiply(generatorBy: nil, point: group.point(x963: verifierData.l), by: yScalar))
        let transcript = try Spake2PlusTranscript(
            context: context, proverIdentity: proverIdentity, verifierIdentity: verifierIdentity, group: group,
            shareP: shareP, shareV: shareV, z: z, v: v, w0: verifierData.w0)
        return try Spake2PlusKeySchedule(transcript: transcript)
    }
}

extension Spake2PlusVerifier: CustomStringConvertible, CustomReflectable {
    /// The password-derived scalars and the ephemeral scalar stay out of logs.
    public var description: String { "Spake2PlusVerifier(shareV: \(shareV.count) bytes, secrets redacted)" }
    public var customMirror: Mirror { Mirror(self, children: ["shareV": shareV]) }
}
