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
            try AESCCM.open(key: key, nonce: Array(nonce.prefix(12)), ciphertextAndTag: ciphertextAndTag, additionalData: header)
        }
        #expect(throws: CryptoError.invalidLength("ciphertext and tag of 15 bytes is shorter than the 16-byte tag")) {
            try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: Array(ciphertextAndTag.prefix(15)), additionalData: header)
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
