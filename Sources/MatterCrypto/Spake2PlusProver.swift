/// Matter Core §3.10 SPAKE2+ prover (the commissioner in PASE): sends X, checks cB, returns cA and Ke. X needs only
/// w0; w1 is given with the verifier's answer, so it can be derived while X is on its way (`Spake2Plus.computeW0`).
public struct Spake2PlusProver: Sendable {
    private let context: [UInt8]
    private let proverIdentity: [UInt8]
    private let verifierIdentity: [UInt8]
    private let w0: [UInt8]
    private let x: [UInt8]
    /// X = x·P + w0·M, 65 bytes uncompressed (pA in PASE).
    public let shareP: [UInt8]

    /// Matter uses empty prover and verifier identities; `context` is the PASE transcript hash.
    public init(context: [UInt8], w0: [UInt8], random: some RandomSource) throws(CryptoError) {
        let x = try P256Group().randomScalar(using: random).bytes(length: CryptoConstants.p256ScalarLength)
        try self.init(context: context, proverIdentity: [], verifierIdentity: [], w0: w0, x: x)
    }

    /// Fixes the ephemeral scalar x and the identities, so published vectors can be replayed.
    init(
        context: [UInt8], proverIdentity: [UInt8], verifierIdentity: [UInt8], w0: [UInt8], x: [UInt8]
    ) throws(CryptoError) {
        let group = try P256Group()
        let w0Scalar = try group.scalar(w0)
        shareP = try group.x963(
            group.multiply(generatorBy: group.scalar(x), point: group.point(encoded: Spake2Plus.pointM), by: w0Scalar))
        self.context = context
        self.proverIdentity = proverIdentity
        self.verifierIdentity = verifierIdentity
        self.w0 = w0
        self.x = x
    }

    /// Takes Y (pB), cB and w1; throws `.invalidPoint` for a bad Y and `.authenticationFailure` when cB does not
    /// match (a wrong passcode). Returns cA to send and the shared key Ke.
    public func respond(
        shareV: [UInt8], confirmV: [UInt8], w1: [UInt8]
    ) throws(CryptoError) -> (confirmP: [UInt8], sharedKey: [UInt8]) {
        let schedule = try keySchedule(shareV: shareV, w1: w1)
        guard constantTimeEqual(schedule.confirmV, confirmV) else { throw .authenticationFailure }
        return (schedule.confirmP, schedule.ke)
    }

    /// Z = x·(Y − w0·N), V = w1·(Y − w0·N), then the shared key schedule.
    func keySchedule(shareV: [UInt8], w1: [UInt8]) throws(CryptoError) -> Spake2PlusKeySchedule {
        let group = try P256Group()
        let y = try group.point(x963: shareV)
        let w0N = try group.multiply(
            generatorBy: nil, point: group.point(encoded: Spake2Plus.pointN), by: group.scalar(w0))
        let unblinded = try group.subtract(y, w0N)
        let z = try group.x963(group.multiply(generatorBy: nil, point: unblinded, by: group.scalar(x)))
        let v = try group.x963(group.multiply(generatorBy: nil, point: unblinded, by: group.scalar(w1)))
        let transcript = try Spake2PlusTranscript(
            context: context, proverIdentity: proverIdentity, verifierIdentity: verifierIdentity, group: group,
            shareP: shareP, shareV: shareV, z: z, v: v, w0: w0)
        return try Spake2PlusKeySchedule(transcript: transcript)
    }
}

extension Spake2PlusProver: CustomStringConvertible, CustomReflectable {
    /// The password-derived scalars and the ephemeral scalar stay out of logs.
    public var description: String { "Spake2PlusProver(shareP: \(shareP.count) bytes, secrets redacted)" }
    public var customMirror: Mirror { Mirror(self, children: ["shareP": shareP]) }
}
