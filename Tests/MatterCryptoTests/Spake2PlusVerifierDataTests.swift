import MatterTestSupport
import Testing

@testable import MatterCrypto

@Suite struct Spake2PlusVerifierDataTests {
    @Test func serializedFormIsW0ThenL() throws {
        let data = try Spake2PlusVerifierData(w0: Spake2PlusVector.w0, l: Spake2PlusVector.l)
        #expect(data.serialized == Spake2PlusVector.w0 + Spake2PlusVector.l)
        #expect(try Spake2PlusVerifierData(serialized: data.serialized) == data)
    }

    // L = w1·P in the published vector: the same multiplication a P-256 public key is.
    @Test func publishedLIsW1TimesGenerator() throws {
        #expect(
            try P256.PrivateKey(rawRepresentation: Spake2PlusVector.w1).publicKey.x963Representation
                == Spake2PlusVector.l)
    }

    @Test func malformedVerifiersAreRejected() {
        let serialized = Spake2PlusVector.w0 + Spake2PlusVector.l
        #expect(throws: CryptoError.invalidLength("SPAKE2+ verifier is 96 bytes, expected 97")) {
            try Spake2PlusVerifierData(serialized: Array(serialized.dropLast()))
        }
        var offCurve = serialized
        offCurve[96] ^= 0x01
        #expect(throws: CryptoError.invalidPoint) { try Spake2PlusVerifierData(serialized: offCurve) }
        let orderW0 = [UInt8](hex: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
        #expect(throws: CryptoError.invalidKey("P-256 scalar is zero or not below the group order")) {
            try Spake2PlusVerifierData(serialized: orderW0 + Spake2PlusVector.l)
        }
    }
}
