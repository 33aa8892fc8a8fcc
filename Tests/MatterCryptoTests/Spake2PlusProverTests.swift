import Testing

@testable import MatterCrypto

@Suite struct Spake2PlusProverTests {
    @Test(arguments: Spake2PlusVector.all)
    func proverReproducesPublishedVector(vector: Spake2PlusVector) throws {
        let prover = try vector.prover()
        #expect(prover.shareP == vector.shareP)
        let schedule = try prover.keySchedule(shareV: vector.shareV, w1: Spake2PlusVector.w1)
        #expect(schedule.ka == vector.ka)
        #expect(schedule.ke == vector.ke)
        #expect(schedule.kcA == vector.kcA)
        #expect(schedule.kcB == vector.kcB)
        #expect(schedule.confirmP == vector.confirmP)
        #expect(schedule.confirmV == vector.confirmV)
        let (confirmP, sharedKey) = try prover.respond(
            shareV: vector.shareV, confirmV: vector.confirmV, w1: Spake2PlusVector.w1)
        #expect(confirmP == vector.confirmP)
        #expect(sharedKey == vector.ke)
    }

    @Test func alteredConfirmationIsRejected() throws {
        let vector = Spake2PlusVector.all[1]
        var confirmV = vector.confirmV
        confirmV[31] ^= 0x01
        #expect(throws: CryptoError.authenticationFailure) {
            try vector.prover().respond(shareV: vector.shareV, confirmV: confirmV, w1: Spake2PlusVector.w1)
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try vector.prover().respond(
                shareV: vector.shareV, confirmV: Array(vector.confirmV.prefix(16)), w1: Spake2PlusVector.w1)
        }
    }

    @Test func invalidShareVIsRejected() throws {
        let vector = Spake2PlusVector.all[1]
        var offCurve = vector.shareV
        offCurve[64] ^= 0x01
        #expect(throws: CryptoError.invalidPoint) {
            try vector.prover().respond(shareV: offCurve, confirmV: vector.confirmV, w1: Spake2PlusVector.w1)
        }
        #expect(throws: CryptoError.invalidPoint) {
            try vector.prover().respond(shareV: [], confirmV: vector.confirmV, w1: Spake2PlusVector.w1)
        }
    }

    // Y = w0·N makes Y − w0·N the identity: the shared point Z would be the identity, which must be refused.
    @Test func shareVThatCancelsToIdentityIsRejected() throws {
        let group = try P256Group()
        let w0N = try group.x963(
            group.multiply(
                generatorBy: nil, point: group.point(encoded: Spake2Plus.pointN), by: group.scalar(Spake2PlusVector.w0))
        )
        let vector = Spake2PlusVector.all[1]
        #expect(throws: CryptoError.invalidPoint) {
            try vector.prover().respond(shareV: w0N, confirmV: vector.confirmV, w1: Spake2PlusVector.w1)
        }
    }

    @Test func invalidScalarsAreRejected() throws {
        #expect(throws: CryptoError.invalidKey("P-256 scalar is 31 bytes, expected 32")) {
            try Spake2PlusProver(context: [], w0: Array(Spake2PlusVector.w0.prefix(31)), random: SystemRandom())
        }
        // w1 comes with the verifier's answer, and is checked there.
        let vector = Spake2PlusVector.all[1]
        #expect(throws: CryptoError.invalidKey("P-256 scalar is zero or not below the group order")) {
            try vector.prover().respond(
                shareV: vector.shareV, confirmV: vector.confirmV, w1: [UInt8](repeating: 0, count: 32))
        }
    }
}
