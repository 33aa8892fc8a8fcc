import COpenSSL

/// FIPS 180-4 SHA-256.
public enum SHA256 {
    public static let digestLength = CryptoConstants.sha256DigestLength

    public static func hash(_ data: [UInt8]) -> [UInt8] {
        openSSLDigest(data, fetchedSHA256, length: digestLength, name: "SHA-256")
    }
}

/// Fetched once and shared: OpenSSL 3 would otherwise look the algorithm up again on every hash.
/// A fetched EVP_MD is immutable and safe to use from any thread.
nonisolated(unsafe) private let fetchedSHA256 = EVP_MD_fetch(nil, "SHA2-256", nil)

/// One-shot EVP_Digest. Hashing fails only when OpenSSL cannot allocate its context (or the algorithm could not be
/// fetched); there is no input to blame, so it traps.
func openSSLDigest(_ data: [UInt8], _ algorithm: OpaquePointer?, length digestLength: Int, name: String) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: digestLength)
    var length: UInt32 = 0
    let status = data.withUnsafeBytes { bytes in
        EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, algorithm, nil)
    }
    precondition(algorithm != nil && status == 1 && Int(length) == digestLength, "OpenSSL EVP_Digest(\(name)) failed")
    return digest
}
