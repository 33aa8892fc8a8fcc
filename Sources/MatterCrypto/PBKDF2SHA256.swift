import COpenSSL

/// RFC 8018 §5.2 PBKDF2 with HMAC-SHA256 as the pseudorandom function.
public enum PBKDF2SHA256 {
    public static func deriveKey(
        password: [UInt8], salt: [UInt8], iterations: Int, outputLength: Int
    ) throws(CryptoError) -> [UInt8] {
        let limit = CryptoConstants.openSSLMaximumLength
        guard (1...limit).contains(iterations) else {
            throw .invalidLength("PBKDF2 iteration count \(iterations) is outside 1...\(limit)")
        }
        guard (1...limit).contains(outputLength) else {
            throw .invalidLength("PBKDF2 output of \(outputLength) bytes is outside 1...\(limit)")
        }
        guard password.count <= limit, salt.count <= limit else {
            throw .invalidLength("PBKDF2 password or salt is too long")
        }
        var output = [UInt8](repeating: 0, count: outputLength)
        let status = try password.withNonNullBytes { (passwordBytes) throws(CryptoError) -> Int32 in
            try salt.withNonNullBytes { (saltBytes) throws(CryptoError) -> Int32 in
                passwordBytes.withMemoryRebound(to: CChar.self, capacity: Swift.max(password.count, 1)) {
                    passwordCharacters in
                    PKCS5_PBKDF2_HMAC(
                        passwordCharacters, Int32(password.count), saltBytes, Int32(salt.count),
                        Int32(iterations), EVP_sha256(), Int32(outputLength), &output)
                }
            }
        }
        try requireSuccess(status, "deriving with PBKDF2-HMAC-SHA256")
        return output
    }
}
