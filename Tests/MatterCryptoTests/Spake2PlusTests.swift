import MatterTestSupport
import Testing

@testable import MatterCrypto

@Suite struct Spake2PlusTests {
    static let salt = Array("SPAKE2P Key Salt".utf8)

    // connectedhomeip examples: the verifier for passcode 20202021, salt "SPAKE2P Key Salt", 1000 iterations,
    // published as base64 "uWFwqugDNGiEck/po7KHwwMwwqZgN10XuyBajPGuyzUEV/iree4lOrao5GuwnlQ65CJzbeUB49s31EH+NEkg0JVI5MGCQGMMT/SRPFNRODm3wH/MBiehuFc6FJ/NH6Rmzw==".
    @Test func verifierForDefaultPasscodeMatchesPublishedValue() throws {
        let data = try Spake2Plus.verifierData(passcode: 20202021, salt: Self.salt, iterations: 1000)
        #expect(
            data.serialized
                == [UInt8](
                    hex: """
                        b96170aae803346884724fe9a3b287c30330c2a660375d17bb205a8cf1aecb35
                        0457f8ab79ee253ab6a8e46bb09e543ae422736de501e3db37d441fe344920d09548e4c18240630c4ff4913c53513839b7c07fcc0627a1b8573a149fcd1fa466cf
                        """))
    }

    @Test func w0MatchesVerifierAndW1GivesL() throws {
        let (w0, w1) = try Spake2Plus.computeW0W1(passcode: 20202021, salt: Self.salt, iterations: 1000)
        let data = try Spake2Plus.verifierData(passcode: 20202021, salt: Self.salt, iterations: 1000)
        #expect(w0 == data.w0)
        #expect(try P256.PrivateKey(rawRepresentation: w1).publicKey.x963Representation == data.l)
    }

    // PASE's split: w0 at once from PBKDF2's first two blocks, w1 later from the second's tail and the third; each
    // as the whole 80-byte derivation (passcode little-endian) gives it.
    @Test(arguments: [1, 1000, 10000])
    func w0NowAndW1LaterMatchTheWholeDerivation(iterations: Int) throws {
        let passcode: UInt32 = 20202021
        let seeds = try PBKDF2SHA256.deriveKey(
            password: [0x25, 0x42, 0x34, 0x01], salt: Self.salt, iterations: iterations, outputLength: 80)
        let group = try P256Group()
        let (w0, w1) = try Spake2Plus.computeW0(passcode: passcode, salt: Self.salt, iterations: iterations)
        #expect(w0 == (try group.reduce(Array(seeds.prefix(40))).bytes(length: 32)))
        let expectedW1 = try group.reduce(Array(seeds.suffix(40))).bytes(length: 32)
        #expect(try w1.value() == expectedW1)
        #expect(try w1.value() == expectedW1, "asked again, the same scalar")
    }

    @Test func fullExchangeAgreesOnSharedKey() throws {
        let context = SHA256.hash(Array("PASE request and response".utf8))
        let (w0, w1) = try Spake2Plus.computeW0W1(passcode: 20202021, salt: Self.salt, iterations: 1000)
        let prover = try Spake2PlusProver(context: context, w0: w0, random: DeterministicRandom(seed: 1))
        var verifier = try Spake2PlusVerifier(
            context: context,
            verifierData: Spake2Plus.verifierData(passcode: 20202021, salt: Self.salt, iterations: 1000),
            random: DeterministicRandom(seed: 2))
        let (shareV, confirmV) = try verifier.respond(shareP: prover.shareP)
        let (confirmP, proverKey) = try prover.respond(shareV: shareV, confirmV: confirmV, w1: w1)
        let verifierKey = try verifier.finish(confirmP: confirmP)
        #expect(proverKey == verifierKey)
        #expect(proverKey.count == 16)
    }

    @Test func wrongPasscodeFailsOnBothSides() throws {
        let context = SHA256.hash(Array("PASE".utf8))
        let (w0, w1) = try Spake2Plus.computeW0W1(passcode: 20202022, salt: Self.salt, iterations: 1000)
        let prover = try Spake2PlusProver(context: context, w0: w0, random: SystemRandom())
        var verifier = try Spake2PlusVerifier(
            context: context,
            verifierData: Spake2Plus.verifierData(passcode: 20202021, salt: Self.salt, iterations: 1000),
            random: SystemRandom())
        let (shareV, confirmV) = try verifier.respond(shareP: prover.shareP)
        #expect(throws: CryptoError.authenticationFailure) {
            try prover.respond(shareV: shareV, confirmV: confirmV, w1: w1)
        }
        // A prover that skipped its check still cannot produce the cA the verifier expects.
        let proverView = try prover.keySchedule(shareV: shareV, w1: w1)
        #expect(throws: CryptoError.authenticationFailure) { try verifier.finish(confirmP: proverView.confirmP) }
    }

    @Test func differentContextsDoNotAgree() throws {
        let (w0, w1) = try Spake2Plus.computeW0W1(passcode: 20202021, salt: Self.salt, iterations: 1000)
        let prover = try Spake2PlusProver(context: [1], w0: w0, random: SystemRandom())
        var verifier = try Spake2PlusVerifier(
            context: [2],
            verifierData: Spake2PlusVerifierData(
                w0: w0, l: P256.PrivateKey(rawRepresentation: w1).publicKey.x963Representation), random: SystemRandom())
        let (shareV, confirmV) = try verifier.respond(shareP: prover.shareP)
        #expect(throws: CryptoError.authenticationFailure) {
            try prover.respond(shareV: shareV, confirmV: confirmV, w1: w1)
        }
    }
}

@Suite struct Spake2PlusRedactionTests {
    @Test func secretsStayOutOfDescriptionsAndMirrors() throws {
        let vector = Spake2PlusVector.all[1]
        let pending = try Spake2Plus.computeW0(passcode: 20202021, salt: Spake2PlusTests.salt, iterations: 1000).w1
        let cases: [(Any, [[UInt8]])] = [
            (pending, [try pending.value()]),
            (try vector.prover(), [Spake2PlusVector.w0, Spake2PlusVector.w1, vector.x]),
            (try vector.verifier(), [Spake2PlusVector.w0, vector.y]),
            (try Spake2PlusVerifierData(w0: Spake2PlusVector.w0, l: Spake2PlusVector.l), [Spake2PlusVector.w0]),
        ]
        for (value, secrets) in cases {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [String(describing: value), String(reflecting: value), dumped] {
                for secret in secrets {
                    // Default printing shows byte arrays as decimal lists; hex would come from a custom description.
                    #expect(!text.contains(String(describing: secret)))
                    #expect(!text.contains(secret.hexString))
                    // dump lists bytes one per line: look for the secret as a run of decimal numbers.
                    let numbers = text.split { !$0.isNumber }.compactMap { UInt8($0) }
                    #expect(!numbers.indices.contains { numbers[$0...].starts(with: secret) })
                }
            }
        }
    }
}
