import COpenSSL

/// FIPS 180-4 SHA-256.
public enum SHA256 {
    public static let digestLength = CryptoConstants.sha256DigestLength

    public static func hash(_ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestLength)
        var length: UInt32 = 0
        let status = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        // Hashing fails only when OpenSSL cannot allocate its context; there is no input to blame.
        precondition(status == 1 && Int(length) == digestLength, "OpenSSL EVP_Digest(SHA-256) failed")
        return digest
    }
}
