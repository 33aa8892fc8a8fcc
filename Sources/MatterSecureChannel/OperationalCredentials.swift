import MatterCrypto

/// What a node proves on one fabric during CASE: its certificates (Matter TLV encoding) and key, and the
/// fabric facts both sides derive the destination ID and session keys from.
public struct OperationalCredentials: Sendable {
    public let fabricID: UInt64
    public let nodeID: UInt64
    /// The fabric root CA's public key, 65 bytes uncompressed.
    public let rootPublicKey: [UInt8]
    public let identityProtectionKey: [UInt8]
    public let noc: [UInt8]
    public let icac: [UInt8]?
    public let operationalKey: P256.PrivateKey

    public init(
        fabricID: UInt64, nodeID: UInt64, rootPublicKey: [UInt8], identityProtectionKey: [UInt8],
        noc: [UInt8], icac: [UInt8]?, operationalKey: P256.PrivateKey
    ) {
        self.fabricID = fabricID
        self.nodeID = nodeID
        self.rootPublicKey = rootPublicKey
        self.identityProtectionKey = identityProtectionKey
        self.noc = noc
        self.icac = icac
        self.operationalKey = operationalKey
    }
}

/// The peer a certificate chain proved: checked by the certificate layer, which this layer does not know.
public struct VerifiedPeer: Sendable, Hashable {
    public let nodeID: UInt64
    public let fabricID: UInt64
    public let publicKey: P256.PublicKey

    public init(nodeID: UInt64, fabricID: UInt64, publicKey: P256.PublicKey) {
        self.nodeID = nodeID
        self.fabricID = fabricID
        self.publicKey = publicKey
    }
}

/// Verifies a peer's NOC (and ICAC) up to the fabric's trusted root (§6.5), returning who it proves.
public protocol CASEPeerValidator: Sendable {
    func validate(
        noc: [UInt8], icac: [UInt8]?, credentials: OperationalCredentials
    ) throws(SecureChannelError) -> VerifiedPeer
}
