import MatterCrypto
import MatterMessaging
import MatterTLV

// Matter Core §4.14.2 CASE, responder side: finds which of its fabrics Sigma1 names, proves itself in
// Sigma2, and checks the initiator's proof in Sigma3. A Sigma1 offering a resumption ID it holds a record for,
// with a MIC that verifies, gets Sigma2Resume instead (§4.14.2.2.1); any other offer gets the full Sigma2.
public struct CASEResponder: Sendable {
    private enum State: Sendable {
        case awaitingSigma1
        case awaitingSigma3(Pending)
        case awaitingResumeConfirmation(EstablishedSession)
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
        let resumptionID: [UInt8]
    }

    private let fabrics: [OperationalCredentials]
    private let localSessionID: UInt16
    private let validator: any CASEPeerValidator
    private let random: any RandomSource
    private let resumptions: CASEResumptionTable
    private var state = State.awaitingSigma1

    /// `resumptions` are the records earlier sessions left (`EstablishedSession.resumption`); the driver keeps them.
    public init(
        fabrics: [OperationalCredentials], localSessionID: UInt16, validator: some CASEPeerValidator,
        random: any RandomSource,
        resumptions: CASEResumptionTable = CASEResumptionTable()
    ) {
        self.fabrics = fabrics
        self.localSessionID = localSessionID
        self.validator = validator
        self.random = random
        self.resumptions = resumptions
    }

    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [SessionEstablishmentAction] {
        do {
            return try handle(opcode: opcode, payload: payload)
        } catch {
            state = .finished
            switch error {
            case .peerRejected: return [.failed(error)]
            case .noSharedTrustRoots:
                return [
                    .send(
                        .statusReport,
                        StatusReport(generalCode: .failure, secureChannelCode: .noSharedTrustRoots).encode()),
                    .failed(error),
                ]
            default: return [.send(.statusReport, StatusReport.invalidParameter.encode()), .failed(error)]
            }
        }
    }

    private mutating func handle(
        opcode: UInt8, payload: [UInt8]
    ) throws(SecureChannelError) -> [SessionEstablishmentAction] {
        if opcode == SecureChannelOpcode.statusReport.rawValue {
            let report = try StatusReport.decode(payload)
            guard case .awaitingResumeConfirmation(let session) = state, report == .sessionEstablishmentSuccess else {
                throw .peerRejected(report)
            }
            state = .finished
            return [.established(session)]
        }
        do {
            switch state {
            case .awaitingSigma1:
                try expect(opcode, .caseSigma1, "Sigma1")
                return try answer(sigma1Bytes: payload)
            case .awaitingSigma3(let pending):
                try expect(opcode, .caseSigma3, "Sigma3")
                return try finish(pending, sigma3Bytes: payload)
            case .awaitingResumeConfirmation:
                throw SecureChannelError.unexpectedMessage(opcode: opcode, expected: "StatusReport")
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
            sigma1.initiatorEphemeralPublicKey.count == SecureChannelLimits.shareLength
        else {
            throw SecureChannelError.invalidField("Sigma1 has a malformed random or ephemeral key")
        }
        if let resumed = try resume(sigma1) { return resumed }
        guard
            let credentials = fabrics.first(where: { fabric in
                OperationalIdentity.destinationID(
                    identityProtectionKey: fabric.identityProtectionKey, initiatorRandom: sigma1.initiatorRandom,
                    rootPublicKey: fabric.rootPublicKey, fabricID: fabric.fabricID, nodeID: fabric.nodeID
                ) == sigma1.destinationID
            })
        else {
            throw SecureChannelError.noSharedTrustRoots
        }
        let ephemeralKey = P256.PrivateKey(using: random)
        let ourEphemeralPublicKey = ephemeralKey.publicKey.x963Representation
        let sharedSecret = try ephemeralKey.sharedSecret(
            with: P256.PublicKey(x963Representation: sigma1.initiatorEphemeralPublicKey))
        let signed = SigmaSignedData(
            noc: credentials.noc, icac: credentials.icac,
            signerEphemeralPublicKey: ourEphemeralPublicKey, otherEphemeralPublicKey: sigma1.initiatorEphemeralPublicKey
        ).encodedPayload()
        let resumptionID = random.bytes(SecureChannelLimits.resumptionIDLength)
        let tbeData2 = SigmaEncryptedData(
            noc: credentials.noc, icac: credentials.icac,
            signature: try credentials.operationalKey.signature(for: signed).rawRepresentation,
            resumptionID: resumptionID
        ).encodedPayload()
        let responderRandom = random.bytes(SecureChannelLimits.randomLength)
        let ipk = credentials.identityProtectionKey
        let s2k = try HKDFSHA256.deriveKey(
            inputKeyMaterial: sharedSecret,
            salt: ipk + responderRandom + ourEphemeralPublicKey + SHA256.hash(sigma1Bytes),
            info: Array("Sigma2".utf8), outputLength: 16
        )
        let sigma2 = Sigma2(
            responderRandom: responderRandom, responderSessionID: localSessionID,
            responderEphemeralPublicKey: ourEphemeralPublicKey,
            encrypted2: try AESCCM.seal(
                key: s2k, nonce: SecureChannelLimits.sigma2Nonce, plaintext: tbeData2, additionalData: [])
        ).encodedPayload()
        state = .awaitingSigma3(
            Pending(
                credentials: credentials, sharedSecret: sharedSecret, transcript: sigma1Bytes + sigma2,
                ourEphemeralPublicKey: ourEphemeralPublicKey,
                peerEphemeralPublicKey: sigma1.initiatorEphemeralPublicKey,
                peerSessionID: sigma1.initiatorSessionID, peerParameters: sigma1.initiatorSessionParameters,
                resumptionID: resumptionID
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
            decrypted = try AESCCM.open(
                key: s3k, nonce: SecureChannelLimits.sigma3Nonce, ciphertextAndTag: sigma3.encrypted3,
                additionalData: [])
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
            signerEphemeralPublicKey: pending.peerEphemeralPublicKey,
            otherEphemeralPublicKey: pending.ourEphemeralPublicKey
        ).encodedPayload()
        guard
            peer.publicKey.isValidSignature(
                try P256.ECDSASignature(rawRepresentation: initiator.signature), for: signed)
        else {
            throw SecureChannelError.invalidField("Sigma3 signature does not verify with the initiator's NOC")
        }
        let keys = try SessionKeys(
            sharedSecret: pending.sharedSecret, salt: ipk + SHA256.hash(pending.transcript + sigma3Bytes))
        state = .finished
        let session = EstablishedSession(
            localSessionID: localSessionID, peerSessionID: pending.peerSessionID, isInitiator: false, keys: keys,
            peerParameters: pending.peerParameters, localNodeID: pending.credentials.nodeID, peerNodeID: peer.nodeID,
            resumption: CASEResumptionRecord(
                resumptionID: pending.resumptionID, sharedSecret: pending.sharedSecret,
                localNodeID: pending.credentials.nodeID,
                peerNodeID: peer.nodeID, fabricID: pending.credentials.fabricID,
                rootPublicKey: pending.credentials.rootPublicKey)
        )
        return [.send(.statusReport, StatusReport.sessionEstablishmentSuccess.encode()), .established(session)]
    }

    /// Sigma2Resume when Sigma1 offers a record this side holds, on a fabric it still belongs to, with a MIC that
    /// verifies; nil (the full Sigma2 follows) otherwise, as §4.14.2.2.1 has a failed resumption fall back.
    private mutating func resume(_ sigma1: Sigma1) throws -> [SessionEstablishmentAction]? {
        guard let offeredID = sigma1.resumptionID, let offeredMIC = sigma1.initiatorResumeMIC,
            let record = resumptions.record(withID: offeredID),
            fabrics.contains(where: record.belongs(to:))
        else { return nil }
        let expected = try CASEResumptionKeys.sigma1MIC(
            sharedSecret: record.sharedSecret, initiatorRandom: sigma1.initiatorRandom,
            resumptionID: offeredID)
        guard CASEResumptionKeys.matches(expected, offeredMIC) else { return nil }
        let newResumptionID = random.bytes(SecureChannelLimits.resumptionIDLength)
        let sigma2Resume = Sigma2Resume(
            resumptionID: newResumptionID,
            sigma2ResumeMIC: try CASEResumptionKeys.sigma2MIC(
                sharedSecret: record.sharedSecret, initiatorRandom: sigma1.initiatorRandom,
                newResumptionID: newResumptionID),
            responderSessionID: localSessionID
        ).encodedPayload()
        let keys = try CASEResumptionKeys.sessionKeys(
            sharedSecret: record.sharedSecret, initiatorRandom: sigma1.initiatorRandom,
            offeredResumptionID: offeredID)
        state = .awaitingResumeConfirmation(
            EstablishedSession(
                localSessionID: localSessionID, peerSessionID: sigma1.initiatorSessionID, isInitiator: false,
                keys: keys,
                peerParameters: sigma1.initiatorSessionParameters, localNodeID: record.localNodeID,
                peerNodeID: record.peerNodeID,
                resumption: record.renamed(newResumptionID), isResumed: true
            ))
        return [.send(.caseSigma2Resume, sigma2Resume)]
    }
}
