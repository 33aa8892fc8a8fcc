import MatterTestSupport
import Testing

@testable import MatterCrypto

@Suite struct HKDFSHA256Tests {
    // RFC 5869 Appendix A.1–A.3.
    @Test(
        arguments: [
            (
                [UInt8](repeating: 0x0b, count: 22), Array(0x00...0x0c), Array(0xf0...0xf9), 42,
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
            ),
            (
                Array(0x00...0x4f), Array(0x60...0xaf), Array(0xb0...0xff), 82,
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"
            ),
            (
                [UInt8](repeating: 0x0b, count: 22), [], [], 42,
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
            ),
        ] as [([UInt8], [UInt8], [UInt8], Int, String)])
    func outputMatchesRFC5869(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], length: Int, okm: String) throws
    {
        let derived = try HKDFSHA256.deriveKey(
            inputKeyMaterial: inputKeyMaterial, salt: salt, info: info, outputLength: length)
        #expect(derived == [UInt8](hex: okm))
    }

    @Test func outOfRangeLengthsThrow() {
        #expect(throws: CryptoError.invalidLength("HKDF-SHA256 output of 8161 bytes is outside 1...8160")) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], salt: [], info: [], outputLength: 8161)
        }
        #expect(throws: CryptoError.invalidLength("HKDF-SHA256 output of 0 bytes is outside 1...8160")) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], salt: [], info: [], outputLength: 0)
        }
        #expect(throws: CryptoError.invalidKey("HKDF input key material is empty")) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [], salt: [], info: [], outputLength: 16)
        }
    }
}
