import COpenSSL

/// Drains OpenSSL's thread-local error queue into one readable error.
func openSSLError(_ operation: String) -> CryptoError {
    var reasons: [String] = []
    while true {
        let code = ERR_get_error()
        if code == 0 { break }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return .openSSL(reasons.isEmpty ? operation : "\(operation): \(reasons.joined(separator: "; "))")
}

/// Throws unless an OpenSSL call returned 1 (its success value).
func requireSuccess(_ result: Int32, _ operation: @autoclosure () -> String) throws(CryptoError) {
    guard result == 1 else { throw openSSLError(operation()) }
}

extension Array where Element == UInt8 {
    /// Calls `body` with a pointer that is never nil, even for an empty array:
    /// OpenSSL gives a nil pointer special meanings (e.g. "no key", "AAD phase").
    func withNonNullBytes<Result>(
        _ body: (UnsafePointer<UInt8>) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        if isEmpty {
            let placeholder: UInt8 = 0
            return try withUnsafePointer(to: placeholder) { (pointer) throws(CryptoError) -> Result in try body(pointer)
            }
        }
        return try withUnsafeBufferPointer { (buffer) throws(CryptoError) -> Result in
            // A non-empty array always has a base address.
            guard let base = buffer.baseAddress else { throw CryptoError.openSSL("no buffer address") }
            return try body(base)
        }
    }
}

/// Compares two byte strings in time that depends only on their lengths (CRYPTO_memcmp).
func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.isEmpty { return true }
    return lhs.withUnsafeBytes { left in
        rhs.withUnsafeBytes { right in
            CRYPTO_memcmp(left.baseAddress, right.baseAddress, lhs.count) == 0
        }
    }
}

/// How OpenSSL lives in this process.
public enum OpenSSLProcess {
    /// Keeps OpenSSL's state until the process ends instead of freeing it in an `atexit` handler, where a thread still
    /// in OpenSSL (a background task of a command that is exiting: finishing an interrupted commissioning, a session
    /// closing) would find it freed and crash. Takes effect only before OpenSSL's first use in the process: call it
    /// first thing; later calls change nothing.
    public static func keepStateUntilExit() {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
