import Foundation
import HomeRecords
import MatterCertificates
import MatterCrypto
import MatterSecureChannel

@testable import HomeHub

/// A hub's fabric in its own state directory, opened as a fresh process would.
func openFabric(in path: String, withIntermediate: Bool = false, seed: UInt64 = 1) async throws -> FabricAuthority {
    let directory = try StateDirectory(creating: path)
    return try await FabricAuthority(
        store: HubStore(directory: directory), keys: KeyStore(directory: directory),
        withIntermediate: withIntermediate, random: DeterministicRandom(seed: seed))
}

/// A device's operational identity on `fabric`: a key of its own, a CSR for it, and the NOC the hub issued.
func enrolledDevice(on fabric: FabricAuthority, seed: UInt64) async throws -> OperationalCredentials {
    let key = P256.PrivateKey(using: DeterministicRandom(seed: seed))
    let request = try CertificateSigningRequest(subject: DistinguishedName([.commonName("CSA")]), signingKey: key)
    let nodeID = try await fabric.allocateNodeID()
    let issued = try fabric.issueNOC(for: request, nodeID: nodeID)
    return OperationalCredentials(
        fabricID: fabric.fabricID, nodeID: nodeID, rootPublicKey: fabric.rootCertificate.publicKey,
        identityProtectionKey: fabric.identityProtectionKey, noc: issued.noc, icac: issued.icac,
        operationalKey: key)
}

/// The signing authority over the fabric's root, rebuilt from its key file, to forge certificates the hub would never issue.
func rootAuthority(of fabric: FabricAuthority, in path: String) async throws -> CertificateAuthority {
    let keys = KeyStore(directory: try StateDirectory(creating: path))
    let rootKey = try await keys.load(.rootCA, fabricID: fabric.fabricID)
    return try CertificateAuthority(certificate: fabric.rootCertificate, signingKey: rootKey)
}

/// Always the same bytes: every draw collides with the previous one.
struct ConstantRandom: RandomSource {
    func bytes(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x01, count: count) }
}
