import Foundation
import HomeRecords
import MatterCertificates
import MatterCrypto
import MatterDiscovery
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterSecureChannel
import Testing

@testable import HomeHub

/// A CASE responder on its own transport on loopback ::1, proving `credentials`: answers CASE, reports whom it
/// proved, then echoes what arrives on the secure session.
actor LoopbackCASEDevice {
    let transport: MatterTransport
    let port: UInt16
    /// The node IDs the device's CASE sessions proved, one per established session.
    nonisolated let provenPeers: AsyncStream<UInt64>
    private var task: Task<Void, Never>?

    init(credentials: OperationalCredentials, validator: FabricPeerValidator) throws {
        transport = try MatterTransport()
        port = try transport.localPorts().ipv6
        let (provenPeers, proven) = AsyncStream.makeStream(of: UInt64.self)
        self.provenPeers = provenPeers
        let transport = transport
        task = Task {
            for await (exchange, first) in transport.incomingExchanges {
                if first.protocolID != .secureChannel {
                    try? await transport.send(first, on: exchange)
                    continue
                }
                var responder = CASEResponder(
                    fabrics: [credentials], localSessionID: 0x4343, validator: validator, random: SystemRandom())
                var message: ExchangeMessage? = first
                while let current = message {
                    var done = false
                    for action in responder.receive(opcode: current.opcode, payload: current.payload) {
                        switch action {
                        case .send(let opcode, let payload):
                            try? await transport.send(
                                ExchangeMessage(protocolID: .secureChannel, opcode: opcode.rawValue, payload: payload),
                                on: exchange)
                        case .established(let session):
                            guard let peer = await transport.peerAddress(of: exchange.session) else { break }
                            _ = try? await transport.addSecureSession(
                                SecureSessionParameters(
                                    localSessionID: session.localSessionID, peerSessionID: session.peerSessionID,
                                    encryptionKey: session.encryptionKey, decryptionKey: session.decryptionKey,
                                    localNonceNodeID: session.sendingNonceNodeID,
                                    peerNonceNodeID: session.receivingNonceNodeID), peer: peer)
                            if let nodeID = session.peerNodeID { proven.yield(nodeID) }
                            done = true
                        case .failed:
                            done = true
                        }
                    }
                    message = done ? nil : try? await transport.receive(on: exchange, timeout: .seconds(5))
                }
            }
        }
    }

    func stop() async {
        task?.cancel()
        await transport.shutdown()
    }
}

@Suite(.timeLimit(.minutes(1))) struct FabricPeerValidatorTests {
    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aNOCOfAnotherFabricIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let ours = try await openFabric(in: base + "/ours", seed: 1)
            let theirs = try await openFabric(in: base + "/theirs", seed: 2)
            let stranger = try await enrolledDevice(on: theirs, seed: 50)
            let reason = Self.refusal {
                _ = try ours.peerValidator.validate(
                    noc: stranger.noc, icac: nil, credentials: ours.operationalCredentials)
            }
            let hex = { (value: UInt64) in String(value, radix: 16, uppercase: true) }
            #expect(reason == "peer NOC is for fabric 0x\(hex(theirs.fabricID)), ours is 0x\(hex(ours.fabricID))")
        }
    }

    @Test func aNOCFromAnotherRootWithOurFabricIDIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            // An impostor root with the same name (RCAC ID 1, our fabric ID) but its own key.
            let impostor = try CertificateAuthority.root(
                signingKey: P256.PrivateKey(using: DeterministicRandom(seed: 90)), rcacID: 1,
                fabricID: fabric.fabricID, serialNumber: [1], notBefore: 0, notAfter: 0)
            #expect(impostor.certificate.subject == fabric.rootCertificate.subject)
            let forged = try impostor.issueOperational(
                publicKey: P256.PrivateKey(using: DeterministicRandom(seed: 91)).publicKey.x963Representation,
                nodeID: 0x42, fabricID: fabric.fabricID, serialNumber: [2], notBefore: 0, notAfter: 0)
            let reason = Self.refusal {
                _ = try fabric.peerValidator.validate(
                    noc: try forged.tlvEncoded(), icac: nil, credentials: fabric.operationalCredentials)
            }
            #expect(
                reason == "peer NOC is not signed by our root: signature does not verify with the issuer's public key")
        }
    }

    @Test func aTamperedNOCIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            let device = try await enrolledDevice(on: fabric, seed: 51)
            var certificate = try MatterCertificate(tlv: device.noc)
            certificate.subject = DistinguishedName([
                .matterNodeID(device.nodeID ^ 1), .matterFabricID(fabric.fabricID),
            ])
            var flipped = device.noc
            flipped[flipped.count - 2] ^= 0x01  // the last byte of the signature, before the end of structure
            for noc in [try certificate.tlvEncoded(), flipped] {
                let reason = Self.refusal {
                    _ = try fabric.peerValidator.validate(
                        noc: noc, icac: nil, credentials: fabric.operationalCredentials)
                }
                #expect(
                    reason
                        == "peer NOC is not signed by our root: signature does not verify with the issuer's public key")
            }
        }
    }

    @Test func aNOCOfOurRootForAnotherFabricIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            let root = try await rootAuthority(of: fabric, in: base)
            let elsewhere = try root.issueOperational(
                publicKey: P256.PrivateKey(using: DeterministicRandom(seed: 52)).publicKey.x963Representation,
                nodeID: 0x42, fabricID: fabric.fabricID ^ 1, serialNumber: [3], notBefore: 0, notAfter: 0)
            let reason = Self.refusal {
                _ = try fabric.peerValidator.validate(
                    noc: try elsewhere.tlvEncoded(), icac: nil, credentials: fabric.operationalCredentials)
            }
            let hex = { (value: UInt64) in String(value, radix: 16, uppercase: true) }
            #expect(reason == "peer NOC is for fabric 0x\(hex(fabric.fabricID ^ 1)), ours is 0x\(hex(fabric.fabricID))")
        }
    }

    @Test func aNOCMustBeANodeCertificateForCASE() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            let device = try MatterCertificate(tlv: try await enrolledDevice(on: fabric, seed: 53).noc)
            let validate = { (noc: [UInt8]) in
                Self.refusal {
                    _ = try fabric.peerValidator.validate(
                        noc: noc, icac: nil, credentials: fabric.operationalCredentials)
                }
            }
            #expect(
                validate(fabric.rootCertificateTLV)
                    == "peer NOC is a CA certificate or lacks basic constraints; a node's NOC must say cA false")

            var noSigning = device
            noSigning.extensions = noSigning.extensions.map {
                if case .keyUsage = $0 { .keyUsage(.keyEncipherment) } else { $0 }
            }
            #expect(
                validate(try noSigning.tlvEncoded()) == "peer NOC does not allow digitalSignature, which CASE needs")

            var anonymous = device
            anonymous.subject = DistinguishedName([.matterFabricID(fabric.fabricID)])
            #expect(validate(try anonymous.tlvEncoded()) == "peer NOC names no node ID")

            var groupID = device
            groupID.subject = DistinguishedName([
                .matterNodeID(0xFFFF_FFFF_FFFF_0001), .matterFabricID(fabric.fabricID),
            ])
            #expect(
                validate(try groupID.tlvEncoded())
                    == "peer NOC names node 0xFFFFFFFFFFFF0001, outside the operational node ID range")

            #expect(validate([0x15, 0x18])?.hasPrefix("peer NOC: ") == true)
        }
    }

    @Test func theChainThroughTheIntermediateIsChecked() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base, withIntermediate: true)
            let device = try await enrolledDevice(on: fabric, seed: 54)
            let icac = try #require(device.icac)
            let validator = fabric.peerValidator
            #expect(
                try validator.validate(noc: device.noc, icac: icac, credentials: fabric.operationalCredentials).nodeID
                    == device.nodeID)

            let withoutICAC = Self.refusal {
                _ = try validator.validate(noc: device.noc, icac: nil, credentials: fabric.operationalCredentials)
            }
            #expect(withoutICAC == "peer NOC was not issued by our root: its issuer name differs")

            var tamperedICAC = icac
            tamperedICAC[tamperedICAC.count - 2] ^= 0x01
            let tampered = Self.refusal {
                _ = try validator.validate(
                    noc: device.noc, icac: tamperedICAC, credentials: fabric.operationalCredentials)
            }
            #expect(
                tampered
                    == "peer ICAC is not signed by our root: signature does not verify with the issuer's public key")

            let nodeAsICAC = Self.refusal {
                _ = try validator.validate(
                    noc: device.noc, icac: device.noc, credentials: fabric.operationalCredentials)
            }
            #expect(nodeAsICAC == "peer ICAC is not a CA certificate allowed to sign certificates")
        }
    }

    @Test func credentialsOfAnotherRootCannotBeJudged() async throws {
        try await withTemporaryDirectory { base in
            let ours = try await openFabric(in: base + "/ours", seed: 1)
            let theirs = try await openFabric(in: base + "/theirs", seed: 2)
            let reason = Self.refusal {
                _ = try ours.peerValidator.validate(
                    noc: ours.operationalCredentials.noc, icac: nil, credentials: theirs.operationalCredentials)
            }
            #expect(
                reason == "the credentials trust another root than this fabric's; cannot judge the peer's certificates")
        }
    }

    @Test(arguments: [false, true])
    func caseOverLoopbackWithTwoNOCsOfOurFabric(withIntermediate: Bool) async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base, withIntermediate: withIntermediate)
            let deviceCredentials = try await enrolledDevice(on: fabric, seed: 60)
            let device = try LoopbackCASEDevice(credentials: deviceCredentials, validator: fabric.peerValidator)
            let controller = try MatterTransport()
            let address = SocketAddress.ipv6(IPv6Address(0, 1), port: device.port)

            let result = try await SessionEstablishment.case(
                with: address, nodeID: deviceCredentials.nodeID, credentials: fabric.operationalCredentials,
                validator: fabric.peerValidator, over: controller)
            #expect(result.established.peerNodeID == deviceCredentials.nodeID)
            #expect(result.established.localNodeID == fabric.hubNodeID)
            #expect(result.established.peerSessionID == 0x4343)
            var proven = device.provenPeers.makeAsyncIterator()
            #expect(await proven.next() == fabric.hubNodeID)

            let exchange = try await controller.openExchange(on: result.session)
            let ping = ExchangeMessage(protocolID: .interactionModel, opcode: 0x02, payload: Array("ping".utf8))
            try await controller.send(ping, on: exchange)
            #expect(try await controller.receive(on: exchange, timeout: .seconds(5)) == ping)
            await controller.close(exchange)
            await controller.shutdown()
            await device.stop()
        }
    }

    @Test func caseOverLoopbackRefusesADeviceWithAForgedNOC() async throws {
        try await withTemporaryDirectory { base in
            let fabric = try await openFabric(in: base)
            // The device knows our root's public key and IPK, so it answers our Sigma1, but its NOC is from another root.
            let key = P256.PrivateKey(using: DeterministicRandom(seed: 61))
            let impostor = try CertificateAuthority.root(
                signingKey: P256.PrivateKey(using: DeterministicRandom(seed: 62)), rcacID: 1,
                fabricID: fabric.fabricID, serialNumber: [1], notBefore: 0, notAfter: 0)
            let forged = try impostor.issueOperational(
                publicKey: key.publicKey.x963Representation, nodeID: 0x42, fabricID: fabric.fabricID,
                serialNumber: [2], notBefore: 0, notAfter: 0)
            let credentials = OperationalCredentials(
                fabricID: fabric.fabricID, nodeID: 0x42, rootPublicKey: fabric.rootCertificate.publicKey,
                identityProtectionKey: fabric.identityProtectionKey, noc: try forged.tlvEncoded(), icac: nil,
                operationalKey: key)
            let device = try LoopbackCASEDevice(credentials: credentials, validator: fabric.peerValidator)
            let controller = try MatterTransport()
            let address = SocketAddress.ipv6(IPv6Address(0, 1), port: device.port)
            await #expect {
                _ = try await SessionEstablishment.case(
                    with: address, nodeID: 0x42, credentials: fabric.operationalCredentials,
                    validator: fabric.peerValidator, over: controller)
            } throws: { error in
                "\(error)"
                    == "CASE failed: peer NOC is not signed by our root: signature does not verify with the issuer's public key"
            }
            await controller.shutdown()
            await device.stop()
        }
    }
}
