import COpenSSL

extension P256 {
    /// SEC 1 §2.3.3 uncompressed public key 0x04 ‖ X ‖ Y, known to lie on P-256.
    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        public let x963Representation: [UInt8]

        /// 65 bytes; the point must be on the curve and not the identity.
        public init(x963Representation: [UInt8]) throws(CryptoError) {
            _ = try P256Group().point(x963: x963Representation)
            self.x963Representation = x963Representation
        }

        init(validatedX963 bytes: [UInt8]) {
            x963Representation = bytes
        }

        /// ECDSA verification over SHA-256(message); false for any signature that does not verify.
        public func isValidSignature(_ signature: ECDSASignature, for message: [UInt8]) -> Bool {
            guard let key = try? ECKey(privateScalar: nil, publicKey: self),
                let openSSLSignature = try? signature.makeOpenSSLSignature()
            else { return false }
            defer { ECDSA_SIG_free(openSSLSignature) }
            let digest = SHA256.hash(message)
            let result = ECDSA_do_verify(digest, Int32(digest.count), openSSLSignature, key.pointer)
            if result != 1 { ERR_clear_error() }
            return result == 1
        }

        public var description: String {
            "P256.PublicKey(\(x963Representation.map { byte in String(byte, radix: 16).count == 1 ? "0\(String(byte, radix: 16))" : String(byte, radix: 16) }.joined()))"
        }
    }
}
