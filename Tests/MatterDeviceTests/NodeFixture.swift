import MatterCertificates
import MatterCrypto
import MatterDevice
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterTLV

/// A node state with real certificates, for the cluster servers' tests.
enum NodeFixture {
    static let attestation = try! DevelopmentAttestation.generate(
        vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100)
    static let verifier = try! Spake2Plus.verifierData(
        passcode: 20202021, salt: [UInt8](repeating: 1, count: 32), iterations: 1000)

    static func node(fabrics: [Fabric] = [], uniqueID: String = "U1") -> NodeState {
        let window = CommissioningWindow(
            kind: .initial, verifier: verifier, iterations: 1000, salt: [UInt8](repeating: 1, count: 32),
            discriminator: 3840, deadline: nil)
        let identity = NodeIdentity(
            vendorID: 0xFFF1, productID: 0x8000, productName: "test light", serialNumber: "S1", uniqueID: uniqueID)
        return NodeState(
            identity: identity, attestation: attestation, onboardingWindow: window, fabrics: fabrics,
            random: SystemRandom())
    }

    /// A fabric whose admin is `admin`, with a fresh root and NOC for node `nodeID`.
    static func fabric(
        index: UInt8, fabricID: UInt64 = 0xFAB, nodeID: UInt64 = 0x1001, admin: UInt64,
        extraEntries: [AccessControlEntry] = []
    ) throws -> Fabric {
        let rootKey = P256.PrivateKey(), nodeKey = P256.PrivateKey()
        let root = try CertificateAuthority.root(
            signingKey: rootKey, rcacID: 1, fabricID: fabricID, serialNumber: [1], notBefore: 0, notAfter: 0)
        let noc = try root.issueOperational(
            publicKey: nodeKey.publicKey.x963Representation, nodeID: nodeID, fabricID: fabricID,
            serialNumber: [2], notBefore: 0, notAfter: 0)
        return try Fabric(
            index: index, rootCertificate: try root.certificate.tlvEncoded(), noc: try noc.tlvEncoded(), icac: nil,
            ipkEpochKey: [UInt8](repeating: 7, count: 16), operationalKey: nodeKey.rawRepresentation, vendorID: 0xFFF1,
            label: "",
            accessControl: [AccessControlEntry(privilege: .administer, authMode: .case, subjects: [admin])]
                + extraEntries)
    }

    static func at(seconds: Int) -> Instant {
        Instant(nanoseconds: UInt64(seconds) * 1_000_000_000)
    }

    static func caseContext(fabric: UInt8, subject: UInt64) -> AccessContext {
        AccessContext(fabricIndex: fabric, subject: subject, authMode: .case)
    }

    static let pase = AccessContext(
        fabricIndex: 0, subject: AccessContext.paseSubject, authMode: .pase, isCommissioning: true)
}
