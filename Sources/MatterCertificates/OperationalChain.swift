// Matter Core §6.5 Operational Certificate profiles, §6.5.12 chain rules: what a node proves with its NOC (and
// ICAC), checked up to one trusted root. Shared by both ends of CASE: the controller checking a device, the
// device checking a controller.
public enum OperationalChain {
    /// The node a valid chain proves.
    public struct ProvenNode: Hashable, Sendable {
        public let nodeID: UInt64
        public let fabricID: UInt64
        /// The NOC's uncompressed P-256 public key.
        public let publicKey: [UInt8]
    }

    /// Why a chain was refused, in words that name the certificate at fault.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Checks that `noc` (Matter TLV) names an operational node of `fabricID`, may sign, and is signed by `icac`
    /// (itself signed by `root`) or directly by `root`.
    public static func validate(
        noc: [UInt8], icac: [UInt8]?, root: MatterCertificate, fabricID expectedFabricID: UInt64
    ) throws(Failure) -> ProvenNode {
        let certificate = try parse(noc, "NOC")
        guard let constraints = certificate.basicConstraints, !constraints.isCertificateAuthority else {
            throw Failure("peer NOC is a CA certificate or lacks basic constraints; a node's NOC must say cA false")
        }
        guard certificate.keyUsage?.contains(.digitalSignature) == true else {
            throw Failure("peer NOC does not allow digitalSignature, which CASE needs")
        }
        guard let nodeID = try field("NOC node ID", { () throws(CertificateError) in try certificate.subject.nodeID })
        else {
            throw Failure("peer NOC names no node ID")
        }
        guard CertificateLimits.operationalNodeIDs.contains(nodeID) else {
            throw Failure("peer NOC names node 0x\(hex(nodeID)), outside the operational node ID range")
        }
        guard
            let fabricID = try field(
                "NOC fabric ID", { () throws(CertificateError) in try certificate.subject.fabricID })
        else {
            throw Failure("peer NOC names no fabric ID")
        }
        guard fabricID == expectedFabricID else {
            throw Failure("peer NOC is for fabric 0x\(hex(fabricID)), ours is 0x\(hex(expectedFabricID))")
        }
        try requireFabric(of: root, fabricID, "our root certificate")

        var issuer = root
        if let icac {
            let intermediate = try parse(icac, "ICAC")
            guard intermediate.basicConstraints?.isCertificateAuthority == true,
                intermediate.keyUsage?.contains(.keyCertSign) == true
            else {
                throw Failure("peer ICAC is not a CA certificate allowed to sign certificates")
            }
            try requireFabric(of: intermediate, fabricID, "peer ICAC")
            try requireSigned(intermediate, by: root, "peer ICAC", "our root")
            issuer = intermediate
        }
        try requireSigned(certificate, by: issuer, "peer NOC", icac == nil ? "our root" : "its ICAC")
        return ProvenNode(nodeID: nodeID, fabricID: fabricID, publicKey: certificate.publicKey)
    }

    private static func parse(_ bytes: [UInt8], _ name: String) throws(Failure) -> MatterCertificate {
        try field("peer \(name)") { () throws(CertificateError) in try MatterCertificate(tlv: bytes) }
    }

    /// A CA may name a fabric (Matter Core §6.5.12.1); when it does, it must be the NOC's.
    private static func requireFabric(
        of certificate: MatterCertificate, _ fabricID: UInt64, _ name: String
    ) throws(Failure) {
        guard
            let named = try field(
                "\(name) fabric ID", { () throws(CertificateError) in try certificate.subject.fabricID })
        else { return }
        guard named == fabricID else {
            throw Failure("\(name) is for fabric 0x\(hex(named)), the NOC for fabric 0x\(hex(fabricID))")
        }
    }

    /// The issuer name must match and the signature must verify over the X.509 tbsCertificate rebuilt from TLV.
    private static func requireSigned(
        _ certificate: MatterCertificate, by issuer: MatterCertificate, _ name: String,
        _ issuerName: String
    ) throws(Failure) {
        guard certificate.issuer == issuer.subject else {
            throw Failure("\(name) was not issued by \(issuerName): its issuer name differs")
        }
        do {
            try certificate.verifySignature(issuerPublicKey: issuer.publicKey)
        } catch {
            throw Failure("\(name) is not signed by \(issuerName): \(error)")
        }
    }

    private static func field<T>(_ name: String, _ body: () throws(CertificateError) -> T) throws(Failure) -> T {
        do {
            return try body()
        } catch {
            throw Failure("\(name): \(error)")
        }
    }

    private static func hex(_ value: UInt64) -> String {
        String(value, radix: 16, uppercase: true)
    }
}
