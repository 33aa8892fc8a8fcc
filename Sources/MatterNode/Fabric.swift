import MatterCertificates
import MatterCrypto
import MatterSecureChannel

// Matter Core §11.18.4 Fabric table entry: what the device keeps for one fabric it joined (its root, its NOC and
// key, the IPK epoch key, the administrator's vendor and its access control list).
public struct Fabric: Hashable, Sendable {
    public var index: UInt8
    /// Matter TLV encodings, as AddTrustedRootCertificate and AddNOC carried them.
    public var rootCertificate: [UInt8]
    public var noc: [UInt8]
    public var icac: [UInt8]?
    /// The fabric's IPK epoch key (§4.15.3.1), from which the identity protection key is derived.
    public var ipkEpochKey: [UInt8]
    /// The raw P-256 private scalar of the key the NOC certifies.
    public var operationalKey: [UInt8]
    public var vendorID: UInt16
    public var label: String
    public var accessControl: [AccessControlEntry]
    /// Its groups and group key sets on this node.
    public var groups: FabricGroups
    /// What the certificates say, read once when the fabric is built.
    public let fabricID: UInt64
    public let nodeID: UInt64
    public let rootPublicKey: [UInt8]

    /// A fabric from certificates that must already chain (`OperationalChain`), so these reads cannot disagree.
    public init(
        index: UInt8, rootCertificate: [UInt8], noc: [UInt8], icac: [UInt8]?, ipkEpochKey: [UInt8],
        operationalKey: [UInt8],
        vendorID: UInt16, label: String, accessControl: [AccessControlEntry], groups: FabricGroups = FabricGroups()
    ) throws(NodeError) {
        let root: MatterCertificate, node: OperationalChain.ProvenNode
        do {
            root = try MatterCertificate(tlv: rootCertificate)
            let certificate = try MatterCertificate(tlv: noc)
            guard let fabricID = try certificate.subject.fabricID else {
                throw NodeError.invalidCredentials("the NOC names no fabric ID")
            }
            node = try OperationalChain.validate(noc: noc, icac: icac, root: root, fabricID: fabricID)
        } catch let error as NodeError {
            throw error
        } catch {
            throw .invalidCredentials("\(error)")
        }
        self.index = index
        self.rootCertificate = rootCertificate
        self.noc = noc
        self.icac = icac
        self.ipkEpochKey = ipkEpochKey
        self.operationalKey = operationalKey
        self.vendorID = vendorID
        self.label = label
        self.accessControl = accessControl
        self.groups = groups
        fabricID = node.fabricID
        nodeID = node.nodeID
        rootPublicKey = root.publicKey
    }

    /// §4.3.2.2: the compressed fabric ID, as DNS-SD and the Fabrics list name the fabric.
    public func compressedFabricID() throws(NodeError) -> [UInt8] {
        do {
            return try OperationalIdentity.compressedFabricID(rootPublicKey: rootPublicKey, fabricID: fabricID)
        } catch {
            throw .invalidCredentials("compressed fabric ID: \(error)")
        }
    }

    /// What CASE proves on this fabric.
    public func operationalCredentials() throws(NodeError) -> OperationalCredentials {
        do {
            let ipk = try OperationalIdentity.identityProtectionKey(
                epochKey: ipkEpochKey, compressedFabricID: try compressedFabricID())
            return OperationalCredentials(
                fabricID: fabricID, nodeID: nodeID, rootPublicKey: rootPublicKey, identityProtectionKey: ipk,
                noc: noc, icac: icac, operationalKey: try P256.PrivateKey(rawRepresentation: operationalKey))
        } catch let error as NodeError {
            throw error
        } catch {
            throw .invalidCredentials("operational key: \(error)")
        }
    }
}
