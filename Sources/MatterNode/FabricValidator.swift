import MatterCertificates
import MatterCrypto
import MatterSecureChannel
import Synchronization

/// Matter Core §6.5 for the CASE responder: an initiator's NOC must chain to the root of the fabric its Sigma1
/// named (`OperationalChain` does the checking). Remembers which fabric the last accepted peer proved itself on.
final class FabricValidator: CASEPeerValidator {
    private let fabrics: [Fabric]
    private let accepted = Mutex<UInt8?>(nil)

    init(fabrics: [Fabric]) {
        self.fabrics = fabrics
    }

    /// The index of the fabric the accepted peer belongs to.
    var acceptedFabricIndex: UInt8? {
        accepted.withLock { $0 }
    }

    func validate(
        noc: [UInt8], icac: [UInt8]?, credentials: OperationalCredentials
    ) throws(SecureChannelError) -> VerifiedPeer {
        guard
            let fabric = fabrics.first(where: {
                $0.rootPublicKey == credentials.rootPublicKey && $0.fabricID == credentials.fabricID
            })
        else {
            throw .invalidField("no fabric of this device trusts the root the session was opened for")
        }
        let node: OperationalChain.ProvenNode
        let publicKey: P256.PublicKey
        do {
            node = try OperationalChain.validate(
                noc: noc, icac: icac, root: try MatterCertificate(tlv: fabric.rootCertificate),
                fabricID: fabric.fabricID)
            publicKey = try P256.PublicKey(x963Representation: node.publicKey)
        } catch {
            throw .invalidField("\(error)")
        }
        accepted.withLock { $0 = fabric.index }
        return VerifiedPeer(nodeID: node.nodeID, fabricID: node.fabricID, publicKey: publicKey)
    }
}
