import MatterCertificates
import MatterCrypto
import MatterSecureChannel

/// Matter Core §6.5 certificate chain checks for CASE: the peer's NOC (and ICAC), in Matter TLV, must chain
/// to our fabric's root and name a node of our fabric.
public struct FabricPeerValidator: CASEPeerValidator {
    /// Our fabric's root certificate (RCAC): the only trust anchor.
    public let root: MatterCertificate

    public init(root: MatterCertificate) {
        self.root = root
    }

    public func validate(noc: [UInt8], icac: [UInt8]?, credentials: OperationalCredentials) throws(SecureChannelError) -> VerifiedPeer {
        guard credentials.rootPublicKey == root.publicKey else {
            throw .invalidField("the credentials trust another root than this fabric's; cannot judge the peer's certificates")
        }
        let certificate = try Self.parse(noc, "NOC")
        guard let constraints = certificate.basicConstraints, !constraints.isCertificateAuthority else {
            throw .invalidField("peer NOC is a CA certificate or lacks basic constraints; a node's NOC must say cA false")
        }
        guard certificate.keyUsage?.contains(.digitalSignature) == true else {
            throw .invalidField("peer NOC does not allow digitalSignature, which CASE needs")
        }
        guard let nodeID = try Self.field("NOC node ID", { () throws(CertificateError) in try certificate.subject.nodeID }) else {
            throw .invalidField("peer NOC names no node ID")
        }
        guard HubConstants.operationalNodeIDs.contains(nodeID) else {
            throw .invalidField("peer NOC names node 0x\(hex(nodeID)), outside the operational node ID range")
        }
        guard let fabricID = try Self.field("NOC fabric ID", { () throws(CertificateError) in try certificate.subject.fabricID }) else {
            throw .invalidField("peer NOC names no fabric ID")
        }
        guard fabricID == credentials.fabricID else {
            throw .invalidField("peer NOC is for fabric 0x\(hex(fabricID)), ours is 0x\(hex(credentials.fabricID))")
        }
        try Self.requireFabric(of: root, fabricID, "our root certificate")

        var issuer = root
        if let icac {
            let intermediate = try Self.parse(icac, "ICAC")
            guard intermediate.basicConstraints?.isCertificateAuthority == true, intermediate.keyUsage?.contains(.keyCertSign) == true else {
                throw .invalidField("peer ICAC is not a CA certificate allowed to sign certificates")
            }
            try Self.requireFabric(of: intermediate, fabricID, "peer ICAC")
            try Self.requireSigned(intermediate, by: root, "peer ICAC", "our root")
            issuer = intermediate
        }
        try Self.requireSigned(certificate, by: issuer, "peer NOC", icac == nil ? "our root" : "its ICAC")

        let publicKey = try Self.field("NOC public key", { () throws(CryptoError) in try P256.PublicKey(x963Representation: certificate.publicKey) })
        return VerifiedPeer(nodeID: nodeID, fabricID: fabricID, publicKey: publicKey)
    }

    private static func parse(_ bytes: [UInt8], _ name: String) throws(SecureChannelError) -> MatterCertificate {
        try field("peer \(name)") { () throws(CertificateError) in try MatterCertificate(tlv: bytes) }
    }

    /// A CA may name a fabric (Matter Core §6.5.12.1); when it does, it must be the NOC's.
    private static func requireFabric(of certificate: MatterCertificate, _ fabricID: UInt64, _ name: String) throws(SecureChannelError) {
        guard let named = try field("\(name) fabric ID", { () throws(CertificateError) in try certificate.subject.fabricID }) else { return }
        guard named == fabricID else {
            throw .invalidField("\(name) is for fabric 0x\(hex(named)), the NOC for fabric 0x\(hex(fabricID))")
        }
    }

    /// The issuer name must match and the signature must verify over the X.509 tbsCertificate rebuilt from TLV.
    private static func requireSigned(_ certificate: MatterCertificate, by issuer: MatterCertificate, _ name: String,
                                      _ issuerName: String) throws(SecureChannelError) {
        guard certificate.issuer == issuer.subject else {
            throw .invalidField("\(name) was not issued by \(issuerName): its issuer name differs")
        }
        do {
            try certificate.verifySignature(issuerPublicKey: issuer.publicKey)
        } catch {
            throw .invalidField("\(name) is not signed by \(issuerName): \(error)")
        }
    }

    private static func field<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(SecureChannelError) -> T {
        do {
            return try body()
        } catch {
            throw .invalidField("\(name): \(error)")
        }
    }
}

private func hex(_ value: UInt64) -> String {
    String(value, radix: 16, uppercase: true)
}
