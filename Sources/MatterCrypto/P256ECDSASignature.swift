import COpenSSL

extension P256 {
    /// An ECDSA P-256 signature; raw form r ‖ s (Matter Core §3.5.3), DER form per RFC 3279 §2.2.3.
    public struct ECDSASignature: Sendable, Hashable {
        public let rawRepresentation: [UInt8]

        /// 64 bytes: r ‖ s, each 32 bytes big-endian.
        public init(rawRepresentation: [UInt8]) throws(CryptoError) {
            guard rawRepresentation.count == CryptoConstants.p256RawSignatureLength else {
                throw .invalidLength(
                    "raw ECDSA signature is \(rawRepresentation.count) bytes, expected \(CryptoConstants.p256RawSignatureLength)"
                )
            }
            self.rawRepresentation = rawRepresentation
        }

        /// Strict DER: SEQUENCE { INTEGER r, INTEGER s }, minimally encoded, with nothing after it.
        public init(derRepresentation: [UInt8]) throws(CryptoError) {
            guard derRepresentation.count <= CryptoConstants.openSSLMaximumLength else { throw .invalidSignature }
            let parsed = derRepresentation.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                var cursor = buffer.baseAddress
                guard let parsed = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
                return parsed
            }
            guard let parsed else {
                ERR_clear_error()
                throw .invalidSignature
            }
            defer { ECDSA_SIG_free(parsed) }
            var r: OpaquePointer?
            var s: OpaquePointer?
            ECDSA_SIG_get0(parsed, &r, &s)
            let half = Int32(CryptoConstants.p256ScalarLength)
            var raw = [UInt8](repeating: 0, count: CryptoConstants.p256RawSignatureLength)
            let written = raw.withUnsafeMutableBufferPointer { buffer in
                BN_bn2binpad(r, buffer.baseAddress, half)
                    + BN_bn2binpad(s, buffer.baseAddress.map { $0 + Int(half) }, half)
            }
            guard BN_is_negative(r) == 0, BN_is_negative(s) == 0, written == 2 * half else { throw .invalidSignature }
            let signature = try ECDSASignature(rawRepresentation: raw)
            // Re-encoding rejects BER leniency and trailing bytes: one signature, one encoding.
            guard signature.derRepresentation == derRepresentation else { throw .invalidSignature }
            self = signature
        }

        public var derRepresentation: [UInt8] {
            let half = CryptoConstants.p256ScalarLength
            let body =
                Self.derInteger(Array(rawRepresentation.prefix(half)))
                + Self.derInteger(Array(rawRepresentation.suffix(half)))
            // Two INTEGERs of at most 35 bytes each always fit the short length form.
            return [0x30, UInt8(body.count)] + body
        }

        /// X.690 §8.3: minimal two's-complement, so drop leading zeros but keep one if the high bit is set.
        private static func derInteger(_ unsigned: [UInt8]) -> [UInt8] {
            var magnitude = Array(unsigned.drop { $0 == 0 })
            if magnitude.isEmpty || magnitude[0] & 0x80 != 0 { magnitude.insert(0, at: 0) }
            return [0x02, UInt8(magnitude.count)] + magnitude
        }

        /// A new ECDSA_SIG the caller frees.
        func makeOpenSSLSignature() throws(CryptoError) -> OpaquePointer {
            let half = CryptoConstants.p256ScalarLength
            guard let signature = ECDSA_SIG_new() else { throw openSSLError("ECDSA_SIG_new") }
            let r = BN_bin2bn(rawRepresentation, Int32(half), nil)
            let s = rawRepresentation.withUnsafeBufferPointer { buffer in
                BN_bin2bn(buffer.baseAddress.map { $0 + half }, Int32(half), nil)
            }
            // ECDSA_SIG_set0 takes ownership of r and s only on success.
            guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                ECDSA_SIG_free(signature)
                throw openSSLError("ECDSA_SIG_set0")
            }
            return signature
        }
    }
}
