import COpenSSL

/// FIPS 180-4 SHA-1, for the one place a protocol still names it: the WebSocket handshake's accept key (RFC 6455
/// §4.2.2), where it proves the server read the request, not that anything is secret. Never use it for security.
public enum SHA1 {
    public static let digestLength = 20

    public static func hash(_ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestLength)
        var length: UInt32 = 0
        let status = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, fetchedSHA1, nil)
        }
        precondition(
            fetchedSHA1 != nil && status == 1 && Int(length) == digestLength, "OpenSSL EVP_Digest(SHA-1) failed")
        return digest
    }
}

/// Fetched once and shared, as for SHA-256.
nonisolated(unsafe) private let fetchedSHA1 = EVP_MD_fetch(nil, "SHA1", nil)
