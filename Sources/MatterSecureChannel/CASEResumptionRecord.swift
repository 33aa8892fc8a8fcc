// Matter Core §4.14.2.2 Session Resumption: what each side keeps of a finished CASE so the next one can skip
// the certificates and signatures.
public struct CASEResumptionRecord: Hashable, Sendable, CustomStringConvertible {
    /// The responder's 16-byte name for this record (Sigma2 TBEData tag 4, or Sigma2Resume tag 1).
    public let resumptionID: [UInt8]
    /// The ECDH shared secret of the CASE that created the record; resumption keys derive from it.
    public let sharedSecret: [UInt8]
    public let localNodeID: UInt64
    public let peerNodeID: UInt64
    /// The fabric both nodes proved themselves on: its ID and root public key name it together.
    public let fabricID: UInt64
    public let rootPublicKey: [UInt8]

    public init(
        resumptionID: [UInt8], sharedSecret: [UInt8], localNodeID: UInt64, peerNodeID: UInt64,
        fabricID: UInt64, rootPublicKey: [UInt8]
    ) {
        self.resumptionID = resumptionID
        self.sharedSecret = sharedSecret
        self.localNodeID = localNodeID
        self.peerNodeID = peerNodeID
        self.fabricID = fabricID
        self.rootPublicKey = rootPublicKey
    }

    /// The same record under the responder's fresh ID, as Sigma2Resume hands one out.
    func renamed(_ newResumptionID: [UInt8]) -> CASEResumptionRecord {
        CASEResumptionRecord(
            resumptionID: newResumptionID, sharedSecret: sharedSecret, localNodeID: localNodeID,
            peerNodeID: peerNodeID, fabricID: fabricID, rootPublicKey: rootPublicKey)
    }

    func belongs(to credentials: OperationalCredentials) -> Bool {
        credentials.fabricID == fabricID && credentials.rootPublicKey == rootPublicKey
            && credentials.nodeID == localNodeID
    }

    /// Never prints the shared secret.
    public var description: String {
        "CASEResumptionRecord(peer node 0x\(String(peerNodeID, radix: 16, uppercase: true)), fabric 0x\(String(fabricID, radix: 16, uppercase: true)))"
    }
}
