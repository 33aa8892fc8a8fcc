/// Why a cryptographic operation refused its input or failed.
public enum CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A MIC, tag or confirmation value did not match: the data was altered or the key is wrong.
    case authenticationFailure
    /// Key material that is not a usable key (for example a P-256 scalar of zero or not below the group order).
    case invalidKey(String)
    /// Bytes that do not encode a point on P-256, or encode the point at infinity.
    case invalidPoint
    /// A signature encoding that cannot be parsed.
    case invalidSignature
    /// An input of the wrong size.
    case invalidLength(String)
    /// OpenSSL reported a failure; the text is its error queue.
    case openSSL(String)

    public var description: String {
        switch self {
        case .authenticationFailure: "authentication failed: the tag or confirmation does not match"
        case .invalidKey(let reason): "invalid key: \(reason)"
        case .invalidPoint: "invalid point: not an uncompressed P-256 point on the curve, or the identity"
        case .invalidSignature: "invalid signature encoding"
        case .invalidLength(let reason): "invalid length: \(reason)"
        case .openSSL(let reason): "OpenSSL failure: \(reason)"
        }
    }
}
