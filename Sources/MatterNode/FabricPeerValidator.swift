import MatterCertificates
import MatterCrypto
import MatterSecureChannel

/// Matter Core §6.5 certificate chain checks for CASE: the peer's NOC (and ICAC), in Matter TLV, must chain
/// to our fabric's root and name a node of our fabric (`OperationalChain` does the checking).
public struct FabricPeerValidator: CASEPeerValidator {
    /// Our fabric's root certificate (RCAC): the only trust anchor.
    public let root: MatterCertificate

    public init(root: MatterCertificate) {
        self.root = root
    }

    public func validate(
        noc: [UInt8], icac: [UInt8]?, credentials: OperationalCredentials
    ) throws(SecureChannelError) -> VerifiedPeer {
        guard credentials.rootPublicKey == root.publicKey else {
            throw .invalidField(
                "the credentials trust another root than this fabric's; cannot judge the peer's certificates")
        }
        return try OperationalChain.verifiedPeer(noc: noc, icac: icac, root: root, fabricID: credentials.fabricID)
    }
}

extension OperationalChain {
    /// The chain's node as CASE needs it, every refusal a secure-channel error.
    public static func verifiedPeer(
        noc: [UInt8], icac: [UInt8]?, root: MatterCertificate, fabricID: UInt64
    ) throws(SecureChannelError) -> VerifiedPeer {
        let node: ProvenNode
        do {
            node = try validate(noc: noc, icac: icac, root: root, fabricID: fabricID)
        } catch {
            throw .invalidField(error.description)
        }
        do {
            return VerifiedPeer(
                nodeID: node.nodeID, fabricID: node.fabricID,
                publicKey: try P256.PublicKey(x963Representation: node.publicKey))
        } catch {
            throw .invalidField("NOC public key: \(error)")
        }
    }
}
