import COpenSSL

/// FIPS 180-4 SHA-1, for the one place a protocol still names it: the WebSocket handshake's accept key (RFC 6455
/// §4.2.2), where it proves the server read the request, not that anything is secret. Never use it for security.
public enum SHA1 {
    public static let digestLength = 20

    public static func hash(_ data: [UInt8]) -> [UInt8] {
        openSSLDigest(data, fetchedSHA1, length: digestLength, name: "SHA-1")
    }
}

/// Fetched once and shared, as for SHA-256.
nonisolated(unsafe) private let fetchedSHA1 = EVP_MD_fetch(nil, "SHA1", nil)
