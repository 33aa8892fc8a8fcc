import MatterCrypto
import MatterMessaging
import MatterTestSupport
import Testing

@testable import MatterSecureChannel

/// Stands in for the certificate layer: a "NOC" here is just bytes that name a known node and key.
struct DirectoryValidator: CASEPeerValidator {
    let nodes: [[UInt8]: VerifiedPeer]

    func validate(
        noc: [UInt8], icac: [UInt8]?, credentials: OperationalCredentials
    ) throws(SecureChannelError) -> VerifiedPeer {
        guard let peer = nodes[noc] else { throw .invalidField("unknown NOC") }
        return peer
    }
}

@Suite struct CASETests {
    static let rootKey = P256.PrivateKey(using: DeterministicRandom(seed: 10))
    static let fabricID: UInt64 = 0x2906_C908_D115_D362

    static func credentials(
        nodeID: UInt64, seed: UInt64, fabricID: UInt64 = fabricID, ipk: [UInt8] = [UInt8](repeating: 0x11, count: 16)
    ) -> OperationalCredentials {
        OperationalCredentials(
            fabricID: fabricID, nodeID: nodeID, rootPublicKey: rootKey.publicKey.x963Representation,
            identityProtectionKey: ipk, noc: Array("NOC of \(nodeID)".utf8), icac: nil,
            operationalKey: P256.PrivateKey(using: DeterministicRandom(seed: seed))
        )
    }

    static func validator(_ all: OperationalCredentials...) -> DirectoryValidator {
        DirectoryValidator(
            nodes: Dictionary(
                uniqueKeysWithValues: all.map {
                    (
                        $0.noc,
                        VerifiedPeer(nodeID: $0.nodeID, fabricID: $0.fabricID, publicKey: $0.operationalKey.publicKey)
                    )
                }))
    }

    static func run(
        _ initiator: inout CASEInitiator, _ responder: inout CASEResponder
    )
        -> (
            initiator: [SessionEstablishmentAction], responder: [SessionEstablishmentAction],
            transcript: [SecureChannelOpcode]
        )
    {
        var transcript: [SecureChannelOpcode] = []
        var outcomes: ([SessionEstablishmentAction], [SessionEstablishmentAction]) = ([], [])
        var toResponder = [initiator.start()]
        while !toResponder.isEmpty {
            var toInitiator: [SessionEstablishmentAction] = []
            for case .send(let opcode, let payload) in toResponder {
                transcript.append(opcode)
                for action in responder.receive(opcode: opcode.rawValue, payload: payload) {
                    if case .send = action { toInitiator.append(action) } else { outcomes.1.append(action) }
                }
            }
            toResponder = []
            for case .send(let opcode, let payload) in toInitiator {
                transcript.append(opcode)
                for action in initiator.receive(opcode: opcode.rawValue, payload: payload) {
                    if case .send = action { toResponder.append(action) } else { outcomes.0.append(action) }
                }
            }
        }
        return (outcomes.0, outcomes.1, transcript)
    }

    @Test func bothSidesAgreeAndKnowEachOther() throws {
        let hub = Self.credentials(nodeID: 0x1, seed: 11)
        let device = Self.credentials(nodeID: 0xCD55_44AA_7B13_EF14, seed: 12)
        var initiator = CASEInitiator(
            credentials: hub, peerNodeID: device.nodeID, localSessionID: 0x0101,
            validator: Self.validator(hub, device), random: DeterministicRandom(seed: 13))
        var responder = CASEResponder(
            fabrics: [Self.credentials(nodeID: 9, seed: 99, fabricID: 7), device], localSessionID: 0x0202,
            validator: Self.validator(hub, device), random: DeterministicRandom(seed: 14))
        let result = Self.run(&initiator, &responder)
        #expect(result.transcript == [.caseSigma1, .caseSigma2, .caseSigma3, .statusReport])
        guard case .established(let mine)? = result.initiator.first,
            case .established(let theirs)? = result.responder.first
        else {
            Issue.record("not established: \(result)")
            return
        }
        #expect(mine.encryptionKey == theirs.decryptionKey && mine.decryptionKey == theirs.encryptionKey)
        #expect(mine.keys.attestationChallenge == theirs.keys.attestationChallenge)
        #expect(mine.peerSessionID == 0x0202 && theirs.peerSessionID == 0x0101)
        #expect(mine.peerNodeID == device.nodeID && theirs.peerNodeID == hub.nodeID)
        #expect(mine.sendingNonceNodeID == theirs.receivingNonceNodeID)
    }

    @Test func aDeviceOfAnotherFabricAnswersNoSharedTrustRoots() {
        let hub = Self.credentials(nodeID: 0x1, seed: 11)
        let stranger = Self.credentials(nodeID: 0x5, seed: 12, ipk: [UInt8](repeating: 0x22, count: 16))
        var initiator = CASEInitiator(
            credentials: hub, peerNodeID: 0x5, localSessionID: 0x0101,
            validator: Self.validator(hub, stranger), random: DeterministicRandom(seed: 15))
        var responder = CASEResponder(
            fabrics: [stranger], localSessionID: 0x0202, validator: Self.validator(hub, stranger),
            random: DeterministicRandom(seed: 16))
        let result = Self.run(&initiator, &responder)
        guard case .failed(.peerRejected(let report))? = result.initiator.first else {
            Issue.record("\(result.initiator)"); return
        }
        #expect(report.description == "FAILURE (NO_SHARED_TRUST_ROOTS)")
        guard case .failed(.noSharedTrustRoots)? = result.responder.first else {
            Issue.record("\(result.responder)"); return
        }
    }

    @Test func refusesAResponderThatProvesAnotherNode() {
        let hub = Self.credentials(nodeID: 0x1, seed: 11)
        let device = Self.credentials(nodeID: 0x2, seed: 12)
        let impostor = VerifiedPeer(nodeID: 0x3, fabricID: Self.fabricID, publicKey: device.operationalKey.publicKey)
        let lying = DirectoryValidator(nodes: [
            device.noc: impostor,
            hub.noc: VerifiedPeer(nodeID: 1, fabricID: Self.fabricID, publicKey: hub.operationalKey.publicKey),
        ])
        var initiator = CASEInitiator(
            credentials: hub, peerNodeID: 0x2, localSessionID: 0x0101, validator: lying,
            random: DeterministicRandom(seed: 17))
        var responder = CASEResponder(
            fabrics: [device], localSessionID: 0x0202, validator: lying, random: DeterministicRandom(seed: 18))
        let result = Self.run(&initiator, &responder)
        guard case .failed(.invalidField(let reason))? = result.initiator.first else {
            Issue.record("\(result.initiator)"); return
        }
        #expect(reason.hasPrefix("Sigma2 proves node 0x3"))
        // The device is told, so it does not wait for Sigma3.
        #expect(result.transcript.last == .statusReport)
    }

    @Test func refusesASignatureByTheWrongKey() {
        let hub = Self.credentials(nodeID: 0x1, seed: 11)
        let device = Self.credentials(nodeID: 0x2, seed: 12)
        let wrongKey = P256.PrivateKey(using: DeterministicRandom(seed: 66)).publicKey
        let validator = DirectoryValidator(nodes: [
            device.noc: VerifiedPeer(nodeID: 2, fabricID: Self.fabricID, publicKey: wrongKey),
            hub.noc: VerifiedPeer(nodeID: 1, fabricID: Self.fabricID, publicKey: hub.operationalKey.publicKey),
        ])
        var initiator = CASEInitiator(
            credentials: hub, peerNodeID: 0x2, localSessionID: 0x0101, validator: validator,
            random: DeterministicRandom(seed: 19))
        var responder = CASEResponder(
            fabrics: [device], localSessionID: 0x0202, validator: validator, random: DeterministicRandom(seed: 20))
        let result = Self.run(&initiator, &responder)
        guard case .failed(let error)? = result.initiator.first else { Issue.record("\(result.initiator)"); return }
        #expect(error == .invalidField("Sigma2 signature does not verify with the responder's NOC"))
    }
}

@Suite struct OperationalIdentityTests {
    static let rootPublicKey = hex(
        "044a9f42b1ca4840d37292bbc7f6a7e11e22200c976fc900dbc98a7a383a641cb8254a2e56d4e295a847943b4e3897c4a773e930277b4d9fbede8a052686bfacfa"
    )

    /// Matter Core §4.3.2.2's example.
    @Test func compressedFabricIDMatchesTheSpecExample() throws {
        let id = try OperationalIdentity.compressedFabricID(
            rootPublicKey: Self.rootPublicKey, fabricID: 0x2906_C908_D115_D362)
        #expect(id == [0x87, 0xE1, 0xB0, 0x04, 0xE2, 0x35, 0xA1, 0x30])
        #expect(
            OperationalIdentity.instanceName(compressedFabricID: id, nodeID: 0xCD55_44AA_7B13_EF14)
                == "87E1B004E235A130-CD5544AA7B13EF14")
        #expect(
            OperationalIdentity.instanceName(compressedFabricID: id, nodeID: 5) == "87E1B004E235A130-0000000000000005")
    }

    /// Matter Core §4.14.2.4's example.
    @Test func destinationIDMatchesTheSpecExample() {
        let id = OperationalIdentity.destinationID(
            identityProtectionKey: hex("9bc61cd9c62a2df6d64dfcaa9dc472d4"),
            initiatorRandom: hex("7e171231568dfa17206b3accf8faec2f4d21b580113196f47c7c4deb810a73dc"),
            rootPublicKey: Self.rootPublicKey, fabricID: 0x2906_C908_D115_D362, nodeID: 0xCD55_44AA_7B13_EF14
        )
        #expect(id == hex("dc35dd5fc9134cc5544538c9c3fc4297c1ec3370c839136a80e10796451d4c53"))
    }
}
