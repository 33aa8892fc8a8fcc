import MatterTestSupport
import Testing

@testable import MatterCrypto

@Suite struct AESCCMTests {
    // connectedhomeip TestSessionManagerDispatch "secure pase message (short payload)": a Matter
    // message encrypted with AES-128-CCM, 13-byte nonce (security flags ‖ counter ‖ source node), 16-byte MIC.
    let key = [UInt8](hex: "5eded244e5532b3cdc23409dbad052d2")
    let nonce = [UInt8](hex: "00 39300000 0000000000000000")
    let header = [UInt8](hex: "00b80b0039300000")
    let plaintext = [UInt8](hex: "0564ee0e207d 1122334455")
    let ciphertextAndTag = [UInt8](hex: "5a989ae42e8d0f7f885dfb 2faa8949cf730a5728e0354610a0c4a7")

    @Test func sealMatchesMatterMessageVector() throws {
        let sealed = try AESCCM.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: header)
        #expect(sealed == ciphertextAndTag)
    }

    @Test func openMatchesMatterMessageVector() throws {
        let opened = try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: ciphertextAndTag, additionalData: header)
        #expect(opened == plaintext)
    }

    // NIST CAVP DVPT128 (SP 800-38C), group "Alen = 0, Plen = 0, Nlen = 13, Tlen = 16", counts 45 and 49:
    // with nothing to encrypt the output is the tag alone.
    @Test(arguments: [
        ("5a8aa485c316e9403aff859fbb", "fb04dc5a44c6bb000f2440f5154364b4"),
        ("935c1ef3d4032ff090f91141f3", "3dacc71169f6da77ec91ff1d2f649ed1"),
    ])
    func emptyPayloadMatchesNISTVector(nonce: String, tag: String) throws {
        let nistKey = [UInt8](hex: "19ebfde2d5468ba0a3031bde629b11fd")
        #expect(
            try AESCCM.seal(key: nistKey, nonce: [UInt8](hex: nonce), plaintext: [], additionalData: [])
                == [UInt8](hex: tag))
        #expect(
            try AESCCM.open(
                key: nistKey, nonce: [UInt8](hex: nonce), ciphertextAndTag: [UInt8](hex: tag), additionalData: []) == []
        )
    }

    // NIST CAVP DVPT128 (SP 800-38C), group "Alen = 0, Plen = 24, Nlen = 13, Tlen = 16", counts 105 and 109.
    @Test(arguments: [
        (
            "5a8aa485c316e9403aff859fbb", "a16a2e741f1cd9717285b6d882c1fc53655e9773761ad697",
            "4bfe4e35784f0a65b545477e5e2f4bae0e1e6fa717eaf2cb6a9a970b9beb2ac1bd4fd62168f8378a"
        ),
        (
            "24b7a65391f88bea38fcd54a9a", "43419715cef9a48dc7280bc035082a6581afd1d82bee9d1a",
            "9fa846ef8d198c538f84f856bab8f7f9c3bed90b53acb6a32658e077687315eaf11458bdf6e3c36a"
        ),
    ])
    func payloadMatchesNISTVector(nonce: String, plaintext: String, ciphertextAndTag: String) throws {
        let nistKey = [UInt8](hex: "90929a4b0ac65b350ad1591611fe4829")
        let sealed = try AESCCM.seal(
            key: nistKey, nonce: [UInt8](hex: nonce), plaintext: [UInt8](hex: plaintext), additionalData: [])
        #expect(sealed == [UInt8](hex: ciphertextAndTag))
        let opened = try AESCCM.open(
            key: nistKey, nonce: [UInt8](hex: nonce), ciphertextAndTag: [UInt8](hex: ciphertextAndTag),
            additionalData: [])
        #expect(opened == [UInt8](hex: plaintext))
    }

    @Test func emptyPlaintextRoundTripsToTagOnly() throws {
        let sealed = try AESCCM.seal(key: key, nonce: nonce, plaintext: [], additionalData: header)
        #expect(sealed.count == AESCCM.tagLength)
        #expect(try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: sealed, additionalData: header) == [])
        #expect(throws: CryptoError.authenticationFailure) {
            try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: sealed, additionalData: [])
        }
    }

    @Test func emptyAdditionalDataRoundTrips() throws {
        let sealed = try AESCCM.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: [])
        #expect(sealed != ciphertextAndTag)
        #expect(try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: sealed, additionalData: []) == plaintext)
    }

    @Test(arguments: [0, 5, 11, 26])
    func flippedBitFailsAuthentication(at index: Int) {
        var tampered = ciphertextAndTag
        tampered[index] ^= 0x01
        #expect(throws: CryptoError.authenticationFailure) {
            try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: tampered, additionalData: header)
        }
    }

    @Test func alteredAdditionalDataFailsAuthentication() {
        var alteredHeader = header
        alteredHeader[4] ^= 0x80
        #expect(throws: CryptoError.authenticationFailure) {
            try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: ciphertextAndTag, additionalData: alteredHeader)
        }
    }

    @Test func wrongNonceFailsAuthentication() {
        var otherNonce = nonce
        otherNonce[1] ^= 0x01
        #expect(throws: CryptoError.authenticationFailure) {
            try AESCCM.open(key: key, nonce: otherNonce, ciphertextAndTag: ciphertextAndTag, additionalData: header)
        }
    }

    @Test func wrongSizesThrowInvalidLength() {
        #expect(throws: CryptoError.invalidLength("AES-CCM key is 15 bytes, expected 16")) {
            try AESCCM.seal(key: Array(key.prefix(15)), nonce: nonce, plaintext: plaintext, additionalData: header)
        }
        #expect(throws: CryptoError.invalidLength("AES-CCM nonce is 12 bytes, expected 13")) {
            try AESCCM.open(
                key: key, nonce: Array(nonce.prefix(12)), ciphertextAndTag: ciphertextAndTag, additionalData: header)
        }
        #expect(throws: CryptoError.invalidLength("ciphertext and tag of 15 bytes is shorter than the 16-byte tag")) {
            try AESCCM.open(
                key: key, nonce: nonce, ciphertextAndTag: Array(ciphertextAndTag.prefix(15)), additionalData: header)
        }
        #expect(throws: CryptoError.invalidLength("AES-CCM payload of 65536 bytes exceeds 65535")) {
            try AESCCM.seal(key: key, nonce: nonce, plaintext: [UInt8](repeating: 0, count: 65536), additionalData: [])
        }
    }

    @Test func largestPayloadRoundTrips() throws {
        let largest = [UInt8](repeating: 0xA5, count: 65535)
        let sealed = try AESCCM.seal(key: key, nonce: nonce, plaintext: largest, additionalData: header)
        #expect(try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: sealed, additionalData: header) == largest)
    }
}
