/// Matter Core §3.10 PASE verifier: w0 (32 bytes) and L = w1·P (65 bytes), stored as w0 ‖ L.
public struct Spake2PlusVerifierData: Sendable, Hashable {
    public let w0: [UInt8]
    public let l: [UInt8]

    public var serialized: [UInt8] { w0 + l }

    /// Checks that w0 is a scalar below the group order and L an uncompressed point on P-256.
    public init(w0: [UInt8], l: [UInt8]) throws(CryptoError) {
        let group = try P256Group()
        guard w0.count == CryptoConstants.p256ScalarLength else {
            throw .invalidLength("SPAKE2+ w0 is \(w0.count) bytes, expected \(CryptoConstants.p256ScalarLength)")
        }
        _ = try group.scalar(w0)
        _ = try group.point(x963: l)
        self.w0 = w0
        self.l = l
    }

    /// 97 bytes: w0 ‖ L, as Matter stores and transfers verifiers.
    public init(serialized: [UInt8]) throws(CryptoError) {
        let expected = CryptoConstants.p256ScalarLength + CryptoConstants.p256UncompressedPointLength
        guard serialized.count == expected else {
            throw .invalidLength("SPAKE2+ verifier is \(serialized.count) bytes, expected \(expected)")
        }
        try self.init(
            w0: Array(serialized.prefix(CryptoConstants.p256ScalarLength)),
            l: Array(serialized.suffix(CryptoConstants.p256UncompressedPointLength)))
    }
}

extension Spake2PlusVerifierData: CustomStringConvertible, CustomReflectable {
    /// w0 lets an attacker test passcodes offline, so it stays out of logs.
    public var description: String { "Spake2PlusVerifierData(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
