import Testing

@testable import MatterCrypto

@Suite struct Spake2PlusVerifierTests {
    @Test(arguments: Spake2PlusVector.all)
    func verifierReproducesPublishedVector(vector: Spake2PlusVector) throws {
        var verifier = try vector.verifier()
        #expect(verifier.shareV == vector.shareV)
        let schedule = try verifier.keySchedule(shareP: vector.shareP)
        #expect(schedule.ka == vector.ka)
        #expect(schedule.ke == vector.ke)
        let (shareV, confirmV) = try verifier.respond(shareP: vector.shareP)
        #expect(shareV == vector.shareV)
        #expect(confirmV == vector.confirmV)
        #expect(try verifier.finish(confirmP: vector.confirmP) == vector.ke)
    }

    @Test func alteredConfirmationIsRejected() throws {
        let vector = Spake2PlusVector.all[1]
        var verifier = try vector.verifier()
        _ = try verifier.respond(shareP: vector.shareP)
        var confirmP = vector.confirmP
        confirmP[0] ^= 0x80
        #expect(throws: CryptoError.authenticationFailure) { try verifier.finish(confirmP: confirmP) }
        #expect(throws: CryptoError.authenticationFailure) { try verifier.finish(confirmP: []) }
    }

    @Test func finishBeforeRespondIsOutOfOrder() throws {
        let verifier = try Spake2PlusVector.all[1].verifier()
        #expect(throws: CryptoError.outOfOrder("finish(confirmP:) called before respond(shareP:)")) {
            try verifier.finish(confirmP: Spake2PlusVector.all[1].confirmP)
        }
    }

    @Test func invalidShareIsRejected() throws {
        var verifier = try Spake2PlusVector.all[1].verifier()
        var offCurve = Spake2PlusVector.all[1].shareP
        offCurve[10] ^= 0x01
        #expect(throws: CryptoError.invalidPoint) { try verifier.respond(shareP: offCurve) }
        #expect(throws: CryptoError.invalidPoint) { try verifier.respond(shareP: Array(offCurve.prefix(33))) }
    }

    // X = w0·M makes X − w0·M the identity: the shared point Z would be the identity, which must be refused.
    @Test func sharePThatCancelsToIdentityIsRejected() throws {
        let group = try P256Group()
        let w0M = try group.x963(
            group.multiply(
                generatorBy: nil, point: group.point(encoded: Spake2Plus.pointM), by: group.scalar(Spake2PlusVector.w0))
        )
        var verifier = try Spake2PlusVector.all[1].verifier()
        #expect(throws: CryptoError.invalidPoint) { try verifier.respond(shareP: w0M) }
    }
}
