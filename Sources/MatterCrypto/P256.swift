import COpenSSL

/// NIST P-256 keys, ECDSA-SHA256 and ECDH as Matter uses them (Matter Core §3.5 and §3.4, FIPS 186-5, SEC 1).
public enum P256 {
    /// A P-256 private scalar. Its bytes never appear in `description`, `debugDescription` or mirrors.
    public struct PrivateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        private let scalar: [UInt8]
        public let publicKey: PublicKey

        public init(using random: some RandomSource = SystemRandom()) {
            do {
                let group = try P256Group()
                let scalar = try group.randomScalar(using: random)
                self.scalar = try scalar.bytes(length: CryptoConstants.p256ScalarLength)
                publicKey = PublicKey(validatedX963: try group.x963(group.multiply(generatorBy: scalar)))
            } catch {
                // Only allocation inside OpenSSL can fail here: no input is involved.
                preconditionFailure("P-256 key generation failed: \(error)")
            }
        }

        /// 32-byte big-endian scalar in [1, n − 1].
        public init(rawRepresentation: [UInt8]) throws(CryptoError) {
            let group = try P256Group()
            let scalar = try group.scalar(rawRepresentation)
            self.scalar = rawRepresentation
            publicKey = PublicKey(validatedX963: try group.x963(group.multiply(generatorBy: scalar)))
        }

        public var rawRepresentation: [UInt8] { scalar }

        /// ECDSA over SHA-256(message) (FIPS 186-5 §6.4), randomized k.
        public func signature(for message: [UInt8]) throws(CryptoError) -> ECDSASignature {
            let key = try ECKey(privateScalar: scalar, publicKey: publicKey)
            let digest = SHA256.hash(message)
            guard let signature = ECDSA_do_sign(digest, Int32(digest.count), key.pointer) else {
                throw openSSLError("ECDSA_do_sign")
            }
            defer { ECDSA_SIG_free(signature) }
            var r: OpaquePointer?
            var s: OpaquePointer?
            ECDSA_SIG_get0(signature, &r, &s)
            var raw = [UInt8](repeating: 0, count: CryptoConstants.p256RawSignatureLength)
            let half = Int32(CryptoConstants.p256ScalarLength)
            let written = raw.withUnsafeMutableBufferPointer { buffer in
                BN_bn2binpad(r, buffer.baseAddress, half)
                    + BN_bn2binpad(s, buffer.baseAddress.map { $0 + Int(half) }, half)
            }
            guard written == 2 * half else { throw openSSLError("encoding ECDSA r and s") }
            return try ECDSASignature(rawRepresentation: raw)
        }

        /// ECDH (SEC 1 §3.3.1): the X coordinate of scalar·peer, 32 bytes.
        public func sharedSecret(with peer: PublicKey) throws(CryptoError) -> [UInt8] {
            let group = try P256Group()
            let product = try group.multiply(
                generatorBy: nil, point: group.point(x963: peer.x963Representation), by: group.scalar(scalar))
            return try group.xCoordinate(product)
        }

        public var description: String { "P256.PrivateKey(<redacted>, publicKey: \(publicKey))" }
        public var debugDescription: String { description }
        public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
    }
}

/// An owned EC_KEY on P-256 for the ECDSA calls, which take no other key form in this API.
final class ECKey {
    let pointer: OpaquePointer

    init(privateScalar: [UInt8]?, publicKey: P256.PublicKey) throws(CryptoError) {
        let group = try P256Group()
        guard let pointer = EC_KEY_new() else { throw openSSLError("EC_KEY_new") }
        self.pointer = pointer
        try requireSuccess(EC_KEY_set_group(pointer, group.group), "setting the EC_KEY group")
        let point = try group.point(x963: publicKey.x963Representation)
        try requireSuccess(EC_KEY_set_public_key(pointer, point.pointer), "setting the EC_KEY public key")
        if let privateScalar {
            let scalar = try group.scalar(privateScalar)
            try requireSuccess(EC_KEY_set_private_key(pointer, scalar.pointer), "setting the EC_KEY private key")
        }
    }

    deinit { EC_KEY_free(pointer) }
}
