import COpenSSL

/// RFC 2104 HMAC with SHA-256.
public enum HMACSHA256 {
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: SHA256.digestLength)
        var length = 0
        // A nil key pointer means "no key" to EVP_MAC, so an empty key still gets a real pointer.
        let padded = key + [0]
        let result = padded.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, key.count,
                    messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                    &code, code.count, &length)
            }
        }
        // HMAC fails only when OpenSSL cannot allocate; every key and message length is valid.
        precondition(result != nil && length == SHA256.digestLength, "OpenSSL EVP_Q_mac(HMAC-SHA256) failed")
        return code
    }
}
