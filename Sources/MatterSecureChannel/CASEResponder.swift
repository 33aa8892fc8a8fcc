import MatterCrypto
import MatterMessaging
import MatterTLV

// Matter Core §4.14.2 CASE, responder side: finds which of its fabrics Sigma1 names, proves itself in
// Sigma2, and checks the initiator's proof in Sigma3.
public struct CASEResponder: Sendable {
    private enum State: Sendable {
        case awaitingSigma1
        case awaitingSigma3(Pending)
        case finished
    }

    private struct Pending: Sendable {
        let credentials: OperationalCredentials
        let sharedSecret: [UInt8]
        let transcript: [UInt8]
        let ourEphemeralPublicKey: [UInt8]
        let peerEphemeralPublicKey: [UInt8]
        let peerSessionID: UInt16
        let peerParameters: SessionParameters?
    }

    private let fabrics: [OperationalCredentials]
    private let localSessionID: UInt16
    private let validator: any CASEPeerValidator
    private let random: any RandomSource
    private var state = State.awaitingSigma1

    public init(fabrics: [OperationalCredentials], localSessionID: UInt16, validator: some CASEPeerValidator, random: any RandomSource) {
        self.fabrics = fabrics
        self.localSessionID = localSessionID
        self.validator = validator
        self.random = random
    }

    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [SessionEstablishmentAction] {
        do {
            return try handle(opcode: opcode, payload: payload)
        } catch {
            state = .finished
            switch error {
            case .peerRejected: return [.failed(error)]
            case .noSharedTrustRoots:
                return [.send(.statusReport, StatusReport(generalCode: .failure, secureChannelCode: .noSharedTrustRoots).encode()), .failed(error)]
            default: return [.send(.statusReport, StatusReport.invalidParameter.encode()), .failed(error)]
            }
        }
    }

    private mutating func handle(opcode: UInt8, payload: [UInt8]) throws(SecureChannelError) -> [SessionEstablishmentAction] {
        if opcode == SecureChannelOpcode.statusReport.rawValue {
            throw .peerRejected(try StatusReport.decode(payload))
        }
        do {
            switch state {
            case .awaitingSigma1:
                try expect(opcode, .caseSigma1, "Sigma1")
                return try answer(sigma1Bytes: payload)
            case .awaitingSigma3(let pending):
                try expect(opcode, .caseSigma3, "Sigma3")
                return try finish(pending, sigma3Bytes: payload)
            case .finished:
                throw SecureChannelError.unexpectedMessage(opcode: opcode, expected: "nothing (CASE finished)")
            }
        } catch let error as SecureChannelError {
            throw error
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .invalidField("\(error)")
        }
    }

    private mutating func answer(sigma1Bytes: [UInt8]) throws -> [SessionEstablishmentAction] {
        let sigma1 = try Sigma1.decodePayload(sigma1Bytes, name: "Sigma1")
        guard sigma1.initiatorRandom.count == SecureChannelLimits.randomLength,
              sigma1.initiatorEphemeralPublicKey.count == SecureChannelLimits.shareLength else {
            throw SecureChannelError.invalidField("Sigma1 has a malformed random or ephemeral key")
        }
        guard let credentials = fabrics.first(where: { fabric in
            OperationalIdentity.destinationID(
                identityProtectionKey: fabric.identityProtectionKey, initiatorRandom: sigma1.initiatorRandom,
                rootPublicKey: fabric.rootPublicKey, fabricID: fabric.fabricID, nodeID: fabric.nodeID
            ) == sigma1.destinationID
        }) else {
            throw SecureChannelError.noSharedTrustRoots
        }
        let ephemeralKey = P256.PrivateKey(using: random)
        let ourEphemeralPublicKey = ephemeralKey.publicKey.x963Representation
        let sharedSecret = try ephemeralKey.sharedSecret(with: P256.PublicKey(x963Representation: sigma1.initiatorEphemeralPublicKey))
        let signed = SigmaSignedData(
            noc: credentials.noc, icac: credentials.icac,
            signerEphemeralPublicKey: ourEphemeralPublicKey, otherEphemeralPublicKey: sigma1.initiatorEphemeralPublicKey
        ).encodedPayload()
        let tbeData2 = SigmaEncryptedData(
            noc: credentials.noc, icac: credentials.icac,
            signature: try credentials.operationalKey.signature(for: signed).rawRepresentation,
            resumptionID: random.bytes(SecureChannelLimits.resumptionIDLength)
        ).encodedPayload()
        let responderRandom = random.bytes(SecureChannelLimits.randomLength)
        let ipk = credentials.identityProtectionKey
        let s2k = try HKDFSHA256.deriveKey(
            inputKeyMaterial: sharedSecret, salt: ipk + responderRandom + ourEphemeralPublicKey + SHA256.hash(sigma1Bytes),
            info: Array("Sigma2".utf8), outputLength: 16
        )
        let sigma2 = Sigma2(
            responderRandom: responderRandom, responderSessionID: localSessionID, responderEphemeralPublicKey: ourEphemeralPublicKey,
            encrypted2: try AESCCM.seal(key: s2k, nonce: SecureChannelLimits.sigma2Nonce, plaintext: tbeData2, additionalData: [])
        ).encodedPayload()
        state = .awaitingSigma3(Pending(
            credentials: credentials, sharedSecret: sharedSecret, transcript: sigma1Bytes + sigma2,
            ourEphemeralPublicKey: ourEphemeralPublicKey, peerEphemeralPublicKey: sigma1.initiatorEphemeralPublicKey,
            peerSessionID: sigma1.initiatorSessionID, peerParameters: sigma1.initiatorSessionParameters
        ))
        return [.send(.caseSigma2, sigma2)]
    }

    private mutating func finish(_ pending: Pending, sigma3Bytes: [UInt8]) throws -> [SessionEstablishmentAction] {
        let sigma3 = try Sigma3.decodePayload(sigma3Bytes, name: "Sigma3")
        let ipk = pending.credentials.identityProtectionKey
        let s3k = try HKDFSHA256.deriveKey(
            inputKeyMaterial: pending.sharedSecret, salt: ipk + SHA256.hash(pending.transcript),
            info: Array("Sigma3".utf8), outputLength: 16
        )
        let decrypted: [UInt8]
        do {
            decrypted = try AESCCM.open(key: s3k, nonce: SecureChannelLimits.sigma3Nonce, ciphertextAndTag: sigma3.encrypted3, additionalData: [])
        } catch {
            throw SecureChannelError.invalidField("Sigma3 does not decrypt")
        }
        let initiator = try SigmaEncryptedData.decodePayload(decrypted, name: "Sigma3 TBEData")
        let peer = try validator.validate(noc: initiator.noc, icac: initiator.icac, credentials: pending.credentials)
        guard peer.fabricID == pending.credentials.fabricID else {
            throw SecureChannelError.invalidField("Sigma3 proves a node of another fabric")
        }
        let signed = SigmaSignedData(
            noc: initiator.noc, icac: initiator.icac,
            signerEphemeralPublicKey: pending.peerEphemeralPublicKey, otherEphemeralPublicKey: pending.ourEphemeralPublicKey
        ).encodedPayload()
        guard peer.publicKey.isValidSignature(try P256.ECDSASignature(rawRepresentation: initiator.signature), for: signed) else {
            throw SecureChannelError.invalidField("Sigma3 signature does not verify with the initiator's NOC")
        }
        let keys = try SessionKeys(sharedSecret: pending.sharedSecret, salt: ipk + SHA256.hash(pending.transcript + sigma3Bytes))
        state = .finished
        let session = EstablishedSession(
            localSessionID: localSessionID, peerSessionID: pending.peerSessionID, isInitiator: false, keys: keys,
            peerParameters: pending.peerParameters, localNodeID: pending.credentials.nodeID, peerNodeID: peer.nodeID
        )
        return [.send(.statusReport, StatusReport.sessionEstablishmentSuccess.encode()), .established(session)]
    }
}
