import MatterCrypto
import MatterTLV

/// Why a certificate or signing request was refused; the field path says where.
public enum CertificateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// DER that is malformed or does not have the structure RFC 5280 / RFC 2986 require.
    case malformedDER(field: String, DERError)
    /// Matter TLV that is malformed or does not have the structure of Matter Core §6.5.
    case malformedTLV(field: String, TLVError)
    /// A well-formed field whose value breaks a rule of the certificate profile.
    case invalidField(String, reason: String)
    /// An algorithm, curve or version that Matter does not use.
    case unsupported(String)
    /// An X.509 certificate that the Matter TLV encoding cannot carry exactly.
    case notMatterEncodable(String)
    /// The signature does not verify with the given public key.
    case signatureInvalid
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .malformedDER(let field, let error): "\(field): \(error)"
        case .malformedTLV(let field, let error): "\(field): \(error)"
        case .invalidField(let field, let reason): "\(field): \(reason)"
        case .unsupported(let what): "unsupported: \(what)"
        case .notMatterEncodable(let reason): "not representable as a Matter TLV certificate: \(reason)"
        case .signatureInvalid: "signature does not verify with the issuer's public key"
        case .crypto(let error): "crypto: \(error)"
        }
    }
}

/// Runs DER decoding of one field, naming the field in any error.
func decodingDER<T>(_ field: String, _ body: () throws(DERError) -> T) throws(CertificateError) -> T {
    do {
        return try body()
    } catch {
        throw .malformedDER(field: field, error)
    }
}

/// Runs TLV decoding of one field, naming the field in any error.
func decodingTLV<T>(_ field: String, _ body: () throws(TLVError) -> T) throws(CertificateError) -> T {
    do {
        return try body()
    } catch {
        throw .malformedTLV(field: field, error)
    }
}

/// Runs a cryptographic operation, wrapping its error.
func performingCrypto<T>(_ body: () throws(CryptoError) -> T) throws(CertificateError) -> T {
    do {
        return try body()
    } catch {
        throw .crypto(error)
    }
}
