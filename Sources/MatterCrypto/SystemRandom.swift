import COpenSSL

/// Cryptographically secure randomness from OpenSSL's DRBG (RAND_bytes).
public struct SystemRandom: RandomSource {
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        var filled = 0
        // RAND_bytes takes a C int count, so large requests are filled in chunks.
        while filled < count {
            let chunk = min(count - filled, CryptoConstants.openSSLMaximumLength)
            let status = output.withUnsafeMutableBufferPointer { buffer in
                RAND_bytes(buffer.baseAddress.map { $0 + filled }, Int32(chunk))
            }
            // A DRBG that cannot seed leaves no safe way to continue: keys would be predictable.
            precondition(status == 1, "OpenSSL RAND_bytes failed: the system random generator is unavailable")
            filled += chunk
        }
        return output
    }
}
