/// Sizes and limits of the primitives Matter uses, each with its reason.
enum CryptoConstants {
    /// AES-128 (Matter Core §3.6): 128-bit keys.
    static let aesKeyLength = 16
    /// Matter Core §3.6: CCM nonce of 13 bytes, so the CCM length field L is 2 bytes.
    static let aesNonceLength = 13
    /// Matter Core §3.6: 128-bit MIC.
    static let aesTagLength = 16
    /// CCM with a 2-byte length field encrypts at most 2^16 − 1 bytes.
    static let aesMaximumPlaintextLength = 0xFFFF
    /// SHA-256 output size.
    static let sha256DigestLength = 32
    /// P-256 scalars and coordinates are 256 bits.
    static let p256ScalarLength = 32
    /// Uncompressed SEC1 point: 0x04 ‖ X ‖ Y.
    static let p256UncompressedPointLength = 65
    /// Raw ECDSA signature: r ‖ s.
    static let p256RawSignatureLength = 64
    /// Random bytes reduced to a scalar: 64 bits beyond the order keep the modular bias below 2^-64 (FIPS 186-5 A.2.1).
    static let p256ScalarSeedLength = 40
    /// HKDF-SHA256 can produce at most 255 blocks of 32 bytes (RFC 5869 §2.3).
    static let hkdfMaximumOutputLength = 255 * 32
    /// OpenSSL takes lengths and iteration counts as C int.
    static let openSSLMaximumLength = Int(Int32.max)
}
