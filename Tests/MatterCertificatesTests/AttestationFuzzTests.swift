import MatterCertificates
import Testing

/// Hostile attestation input: CMS envelopes, attestation and NOCSR elements, and whole responses must be
/// refused or accepted, never crash or hang.
@Suite(.timeLimit(.minutes(1))) struct AttestationFuzzTests {
    private static let iterations = 10_000

    @Test func mutatedDeclarationsAndElements() throws {
        var generator = SplitMix64(seed: 0xA77E_0001)
        let seeds = [
            CHIPAttestationVectors.certificationDeclaration, CircuitMatterVectors.certificationDeclaration,
            CircuitMatterVectors.attestationElements, CircuitMatterVectors.nocsrElements,
        ]
        for _ in 0..<Self.iterations {
            var input = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            mutate(&input, using: &generator)
            if let signed = try? SignedCertificationDeclaration(derEncoded: input) {
                _ = try? signed.verifySignature(publicKey: CertificationDeclarationSigningKey.test.publicKey)
            }
            _ = try? AttestationElements(tlv: input)
            _ = try? NOCSRElements(tlv: input)
        }
    }

    @Test func mutatedAttestationResponses() throws {
        var generator = SplitMix64(seed: 0xA77E_0002)
        let verifier = DeviceAttestationVerifier(
            trustStore: try AttestationTestSupport.store(TestPAA.noVIDDER), developmentMode: true)
        var accepted = 0
        for _ in 0..<Self.iterations {
            var elements = CircuitMatterVectors.attestationElements
            var dac = CircuitMatterVectors.dac
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: mutate(&elements, using: &generator)
            case 1: mutate(&dac, using: &generator)
            default: break
            }
            let result = verifier.verify(
                dac: dac, pai: CircuitMatterVectors.pai, attestationElements: elements,
                attestationSignature: CircuitMatterVectors.attestationSignature,
                attestationChallenge: CircuitMatterVectors.challenge, nonce: CircuitMatterVectors.nonce,
                deviceVendorID: nil, deviceProductID: nil, now: AttestationTestSupport.january2025)
            if result.isTrusted {
                accepted += 1
                // Only the untouched response may pass: every signed byte matters.
                #expect(elements == CircuitMatterVectors.attestationElements && dac == CircuitMatterVectors.dac)
            }
        }
        #expect(accepted > 0)
        let nocsrSignature = CircuitMatterVectors.nocsrSignature
        for _ in 0..<Self.iterations / 10 {
            var elements = CircuitMatterVectors.nocsrElements
            mutate(&elements, using: &generator)
            _ = try? NOCSRVerification.verify(
                nocsrElements: elements, attestationSignature: nocsrSignature,
                attestationChallenge: CircuitMatterVectors.challenge,
                csrNonce: CircuitMatterVectors.csrNonce,
                dacPublicKey: try X509Certificate(derEncoded: CircuitMatterVectors.dac).publicKey)
        }
    }

    private func mutate(_ input: inout [UInt8], using generator: inout SplitMix64) {
        let interesting: [UInt8] = [
            0x00, 0x01, 0x02, 0x04, 0x15, 0x18, 0x24, 0x30, 0x31, 0x35, 0x36, 0x7F, 0x80, 0x81, 0x82, 0xA0, 0xFF,
        ]
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = input.isEmpty ? 0 : Int.random(in: 0..<input.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !input.isEmpty: input[position] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            case 1 where !input.isEmpty:
                input[position] = interesting[Int.random(in: 0..<interesting.count, using: &generator)]
            case 2 where !input.isEmpty: input.remove(at: position)
            case 3: input.insert(interesting[Int.random(in: 0..<interesting.count, using: &generator)], at: position)
            default: input.removeLast(Int.random(in: 0...min(8, input.count), using: &generator))
            }
        }
    }
}
