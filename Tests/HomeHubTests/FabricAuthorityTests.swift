import Foundation
import HomeRecords
import MatterCertificates
import MatterCrypto
import MatterSecureChannel
import Testing

@testable import HomeHub

@Suite struct FabricAuthorityTests {
    @Test func theFabricIsCreatedOnceAndReloadedIdentically() async throws {
        try await withTemporaryDirectory { base in
            let created = try await openFabric(in: base, seed: 1)
            // A new process: new store and key store instances, another random source.
            let reloaded = try await openFabric(in: base, seed: 2)
            #expect(reloaded.fabric == created.fabric)
            #expect(reloaded.rootCertificate == created.rootCertificate)
            #expect(reloaded.compressedFabricID == created.compressedFabricID)
            #expect(reloaded.identityProtectionKey == created.identityProtectionKey)
            let (mine, theirs) = (created.operationalCredentials, reloaded.operationalCredentials)
            #expect(
                mine.fabricID == theirs.fabricID && mine.nodeID == theirs.nodeID
                    && mine.rootPublicKey == theirs.rootPublicKey)
            #expect(mine.noc == theirs.noc && mine.icac == nil && theirs.icac == nil)
            #expect(mine.operationalKey.rawRepresentation == theirs.operationalKey.rawRepresentation)
            #expect(try await HubStore(path: base + "/hub.sqlite").fabric() == created.fabric)
        }
    }

    @Test func theFabricHasValidIdentifiersAndASelfSignedRoot() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            #expect(fabric.fabricID != 0)
            #expect((1...0xFFFF_FFEF_FFFF_FFFF).contains(fabric.hubNodeID))
            #expect(fabric.caseAdminSubject == fabric.hubNodeID)
            #expect(fabric.fabric.vendorID == 0xFFF1 && FabricAuthority.adminVendorID == 0xFFF1)
            #expect(fabric.fabric.ipkEpochKey.count == 16)

            let root = try MatterCertificate(tlv: fabric.rootCertificateTLV)
            #expect(try root.subject.rcacID == 1 && root.subject.fabricID == fabric.fabricID)
            #expect(root.issuer == root.subject)
            try root.verifySignature(issuerPublicKey: root.publicKey)
            #expect(root.basicConstraints?.isCertificateAuthority == true)

            let noc = try MatterCertificate(tlv: fabric.operationalCredentials.noc)
            #expect(try noc.subject.nodeID == fabric.hubNodeID && noc.subject.fabricID == fabric.fabricID)
            #expect(noc.publicKey == fabric.operationalCredentials.operationalKey.publicKey.x963Representation)
            try noc.verifySignature(issuerPublicKey: root.publicKey)

            // The IPK and compressed fabric ID come from this fabric's root key, fabric ID and epoch key.
            let compressed = try OperationalIdentity.compressedFabricID(
                rootPublicKey: root.publicKey, fabricID: fabric.fabricID)
            #expect(fabric.compressedFabricID == compressed)
            #expect(
                fabric.identityProtectionKey
                    == (try OperationalIdentity.identityProtectionKey(
                        epochKey: fabric.fabric.ipkEpochKey, compressedFabricID: compressed)))
            #expect(fabric.identityProtectionKey != fabric.fabric.ipkEpochKey)
        }
    }

    @Test func hubsSideBySideHaveTheirOwnFabrics() async throws {
        try await withTemporaryDirectory { base in
            let first = try await openFabric(in: base + "/a", seed: 1)
            let second = try await openFabric(in: base + "/b", seed: 2)
            #expect(first.fabricID != second.fabricID)
            #expect(first.rootCertificate.publicKey != second.rootCertificate.publicKey)
        }
    }

    @Test func keyFilesAreOwnerOnly() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base, withIntermediate: true)
            let prefix = String(fabric.fabricID, radix: 16, uppercase: true)
            let files = try FileManager.default.contentsOfDirectory(atPath: base + "/keys").sorted()
            #expect(files == ["\(prefix)-icac.key", "\(prefix)-operational.key", "\(prefix)-rcac.key"])
            for file in files { #expect(permissions(base + "/keys/" + file) == 0o600) }
            #expect(permissions(base + "/keys") == 0o700)
            #expect(permissions(base) == 0o700)
            #expect(permissions(base + "/hub.sqlite") == 0o600)
        }
    }

    @Test func aMissingKeyFileIsNamed() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            let path = KeyStore(directory: try StateDirectory(creating: base)).path(
                of: .hubOperational, fabricID: fabric.fabricID)
            try FileManager.default.removeItem(atPath: path)
            await #expect {
                try await openFabric(in: base)
            } throws: { error in
                "\(error)" == "fabric keys: key file \(path) is missing"
            }
        }
    }

    @Test func aKeyFileWithAnotherKeyIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            let keys = KeyStore(directory: try StateDirectory(creating: base))
            try await keys.save(
                P256.PrivateKey(using: DeterministicRandom(seed: 77)), as: .rootCA, fabricID: fabric.fabricID)
            await #expect {
                try await openFabric(in: base)
            } throws: { error in
                "\(error)"
                    == "key file \(keys.path(of: .rootCA, fabricID: fabric.fabricID)) does not hold the key of the root certificate (RCAC)"
            }
        }
    }

    @Test func keysLeftByACrashBeforeTheRowDoNotStopANewFabric() async throws {
        try await withTemporaryDirectory { base in
            let keys = KeyStore(directory: try StateDirectory(creating: base))
            try await keys.save(P256.PrivateKey(using: DeterministicRandom(seed: 5)), as: .rootCA, fabricID: 0x1234)
            let fabric = try await openFabric(in: base)
            #expect(fabric.fabricID != 0x1234)
            #expect(try await openFabric(in: base).fabric == fabric.fabric)
        }
    }

    @Test(arguments: [false, true])
    func anIssuedNOCCarriesTheCSRKeyAndValidates(withIntermediate: Bool) async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base, withIntermediate: withIntermediate)
            let device = try await enrolledDevice(on: fabric, seed: 40)
            let noc = try MatterCertificate(tlv: device.noc)
            #expect(try noc.subject.nodeID == device.nodeID && noc.subject.fabricID == fabric.fabricID)
            #expect(noc.publicKey == device.operationalKey.publicKey.x963Representation)
            #expect(noc.keyUsage == .digitalSignature && noc.basicConstraints?.isCertificateAuthority == false)
            #expect(noc.extendedKeyUsage == [.clientAuth, .serverAuth])
            #expect(device.icac == fabric.intermediateCertificateTLV)
            #expect((device.icac != nil) == withIntermediate)
            // The X.509 form, which devices verify, converts back to the same certificate.
            #expect(try MatterCertificate(x509DER: noc.x509DER()) == noc)

            let peer = try fabric.peerValidator.validate(
                noc: device.noc, icac: device.icac, credentials: fabric.operationalCredentials)
            #expect(
                peer
                    == VerifiedPeer(
                        nodeID: device.nodeID, fabricID: fabric.fabricID, publicKey: device.operationalKey.publicKey))
        }
    }

    @Test func aCSRWhoseSignatureDoesNotVerifyGetsNoNOC() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            let request = try CertificateSigningRequest(
                subject: DistinguishedName([.commonName("CSA")]),
                signingKey: P256.PrivateKey(using: DeterministicRandom(seed: 41)))
            // Change the signed subject "CSA" to "CSB": the signature no longer covers what is asked.
            var bytes = request.derEncoded
            let offset = try #require(
                bytes.indices.first { Array(bytes[$0..<min($0 + 3, bytes.count)]) == Array("CSA".utf8) })
            bytes[offset + 2] = UInt8(ascii: "B")
            let tampered = try CertificateSigningRequest(derEncoded: bytes)
            #expect {
                try fabric.issueNOC(for: tampered, nodeID: 0x42)
            } throws: { error in
                "\(error)" == "fabric certificate: signature does not verify with the issuer's public key"
            }
        }
    }

    @Test func nonOperationalNodeIDsGetNoNOC() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            let request = try CertificateSigningRequest(
                subject: DistinguishedName([]), signingKey: P256.PrivateKey(using: DeterministicRandom(seed: 42)))
            for nodeID: UInt64 in [0, 0xFFFF_FFF0_0000_0000, 0xFFFF_FFFF_FFFF_FFFF] {
                #expect {
                    try fabric.issueNOC(for: request, nodeID: nodeID)
                } throws: { error in
                    "\(error)"
                        == "node ID 0x\(String(nodeID, radix: 16, uppercase: true)) is not an operational node ID (0x1…0xFFFFFFEFFFFFFFFF)"
                }
            }
        }
    }

    @Test func allocatedNodeIDsAreOperationalAndUnique() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            var allocated: [UInt64] = []
            for _ in 0..<20 { allocated.append(try await fabric.allocateNodeID()) }
            #expect(Set(allocated).count == 20)
            #expect(allocated.allSatisfy { (1...0xFFFF_FFEF_FFFF_FFFF).contains($0) && $0 != fabric.hubNodeID })
            let store = try await HubStore(path: base + "/hub.sqlite")
            for nodeID in allocated { #expect(try await !store.reserveNodeID(nodeID)) }
        }
    }

    @Test func allocationGivesUpWhenEveryDrawCollides() async throws {
        try await withTemporaryDirectory { base in
            let directory = try StateDirectory(creating: base)
            // Every draw yields the hub's own node ID, which is never handed out.
            let fabric = try await FabricAuthority(
                store: HubStore(directory: directory), keys: KeyStore(directory: directory), random: ConstantRandom())
            await #expect {
                try await fabric.allocateNodeID()
            } throws: { error in
                "\(error)" == "no free node ID after 16 random draws: the random source is broken"
            }
        }
    }
}
