import COpenSSL
import Dispatch
import Synchronization

/// RFC 8018 §5.2 PBKDF2 with HMAC-SHA256 as the pseudorandom function. Its output blocks depend on nothing but
/// their index, so they are derived side by side, a core each: PASE's 80 bytes are three blocks of 10,000 or more
/// HMACs, on the commissioner's critical path (`Spake2Plus.computeW0`).
public enum PBKDF2SHA256 {
    /// The pseudorandom function's output, one block of the key.
    static let blockLength = SHA256.digestLength

    public static func deriveKey(
        password: [UInt8], salt: [UInt8], iterations: Int, outputLength: Int
    ) throws(CryptoError) -> [UInt8] {
        let limit = CryptoConstants.openSSLMaximumLength
        guard (1...limit).contains(outputLength) else {
            throw .invalidLength("PBKDF2 output of \(outputLength) bytes is outside 1...\(limit)")
        }
        let count = (outputLength + blockLength - 1) / blockLength
        return Array(
            try blocks(1...count, password: password, salt: salt, iterations: iterations).joined().prefix(outputLength))
    }

    /// Blocks T_first…T_last of the key (RFC 8018 §5.2, numbered from 1), 32 bytes each, derived concurrently.
    static func blocks(
        _ indices: ClosedRange<Int>, password: [UInt8], salt: [UInt8], iterations: Int
    ) throws(CryptoError) -> [[UInt8]] {
        let limit = CryptoConstants.openSSLMaximumLength
        guard (1...limit).contains(iterations) else {
            throw .invalidLength("PBKDF2 iteration count \(iterations) is outside 1...\(limit)")
        }
        guard password.count <= limit, salt.count <= limit else {
            throw .invalidLength("PBKDF2 password or salt is too long")
        }
        guard indices.lowerBound >= 1, indices.upperBound <= Int(UInt32.max) else {
            throw .invalidLength("PBKDF2 block \(indices) is outside 1...\(UInt32.max)")
        }
        let results = Mutex([Result<[UInt8], CryptoError>?](repeating: nil, count: indices.count))
        DispatchQueue.concurrentPerform(iterations: indices.count) { offset in
            let result = Result<[UInt8], CryptoError> { () throws(CryptoError) in
                try block(
                    UInt32(indices.lowerBound + offset), password: password, salt: salt, iterations: iterations)
            }
            results.withLock { $0[offset] = result }
        }
        // concurrentPerform returns once every iteration has run, so each has its result.
        return try results.withLock { $0 }.map { (result) throws(CryptoError) -> [UInt8] in try result!.get() }
    }

    /// F(P, S, c, i) = U_1 ⊕ … ⊕ U_c, with U_1 = HMAC(P, S ‖ INT(i)) and U_j = HMAC(P, U_j−1). One keyed HMAC
    /// context serves every U: re-initialised without a key, it starts again from the padded key's state.
    private static func block(
        _ index: UInt32, password: [UInt8], salt: [UInt8], iterations: Int
    ) throws(CryptoError) -> [UInt8] {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { throw openSSLError("EVP_MAC_fetch(HMAC)") }
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { throw openSSLError("EVP_MAC_CTX_new(HMAC)") }
        defer { EVP_MAC_CTX_free(context) }
        // A nil key pointer means "keep the key": an empty password still gets a real pointer.
        let keyed = try password.withNonNullBytes { (bytes) throws(CryptoError) -> Int32 in
            "digest".withCString { key in
                "SHA256".withCString { digest in
                    let parameters = [
                        OSSL_PARAM_construct_utf8_string(key, UnsafeMutablePointer(mutating: digest), 0),
                        OSSL_PARAM_construct_end(),
                    ]
                    return EVP_MAC_init(context, bytes, password.count, parameters)
                }
            }
        }
        try requireSuccess(keyed, "keying HMAC-SHA256 for PBKDF2")
        let counter = (0..<4).reversed().map { UInt8(truncatingIfNeeded: index >> (8 * $0)) }
        var u = [UInt8](repeating: 0, count: blockLength)
        var length = 0
        try requireSuccess(EVP_MAC_update(context, salt + counter, salt.count + 4), "PBKDF2's first HMAC")
        try requireSuccess(EVP_MAC_final(context, &u, &length, blockLength), "PBKDF2's first HMAC")
        var t = u
        try u.withUnsafeMutableBufferPointer { (u) throws(CryptoError) in
            try t.withUnsafeMutableBufferPointer { (t) throws(CryptoError) in
                // Both hold 32 bytes, so their base addresses are never nil.
                let (uBytes, tWords) = (u.baseAddress!, UnsafeMutableRawPointer(t.baseAddress!))
                let uWords = UnsafeRawPointer(uBytes)
                for _ in 1..<iterations {
                    guard EVP_MAC_init(context, nil, 0, nil) == 1,
                        EVP_MAC_update(context, uBytes, blockLength) == 1,
                        EVP_MAC_final(context, uBytes, &length, blockLength) == 1
                    else { throw openSSLError("PBKDF2's HMAC chain") }
                    // The 32 bytes eight at a time, unrolled: tens of thousands of rounds, in debug builds too.
                    func mix(_ offset: Int) {
                        tWords.storeBytes(
                            of: tWords.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                                ^ uWords.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                            toByteOffset: offset, as: UInt64.self)
                    }
                    mix(0)
                    mix(8)
                    mix(16)
                    mix(24)
                }
            }
        }
        return t
    }
}
