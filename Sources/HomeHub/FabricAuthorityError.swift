import HomeRecords
import MatterCertificates
import MatterCrypto

/// Why the fabric could not be created, loaded or used.
public enum FabricAuthorityError: Error, Sendable, CustomStringConvertible {
    case store(HubStoreError)
    case keys(KeyStoreError)
    case certificate(CertificateError)
    case crypto(CryptoError)
    /// A key file holds another key than the certificate it belongs to.
    case keyMismatch(path: String, certificate: String)
    /// The stored fabric contradicts itself.
    case inconsistent(String)
    case invalidNodeID(UInt64)
    case nodeIDsExhausted(attempts: Int)

    public var description: String {
        switch self {
        case .store(let error): "fabric store: \(error)"
        case .keys(let error): "fabric keys: \(error)"
        case .certificate(let error): "fabric certificate: \(error)"
        case .crypto(let error): "fabric cryptography: \(error)"
        case .keyMismatch(let path, let certificate): "key file \(path) does not hold the key of \(certificate)"
        case .inconsistent(let reason): "the stored fabric is inconsistent: \(reason)"
        case .invalidNodeID(let nodeID):
            "node ID 0x\(String(nodeID, radix: 16, uppercase: true)) is not an operational node ID (0x1…0xFFFFFFEFFFFFFFFF)"
        case .nodeIDsExhausted(let attempts):
            "no free node ID after \(attempts) random draws: the random source is broken"
        }
    }
}
