import MatterCrypto
import MatterMessaging
import MatterTLV

// Matter Core §4.14.2 Certificate Authenticated Session Establishment, initiator side:
//   Sigma1 → Sigma2 → Sigma3 → StatusReport. Sans-IO, like PASEInitiator. With a resumption record (§4.14.2.2)
//   Sigma1 offers it, and a responder that still knows it answers Sigma2Resume, which this side confirms with a
//   StatusReport; a responder that does not answers the full Sigma2, and CASE goes on as without.
public struct CASEInitiator: Sendable {
    private enum State: Sendable {
        case idle
        case awaitingSigma2(
            sigma1: [UInt8], ephemeralKey: P256.PrivateKey, initiatorRandom: [UInt8], offered: CASEResumptionRecord?)
        case awaitingStatusReport(session: EstablishedSession)
        case finished
    }

    private let credentials: OperationalCredentials
    private let peerNodeID: UInt64
    private let localSessionID: UInt16
    private let validator: any CASEPeerValidator
    private let random: any RandomSource
    private let resumption: CASEResumptionRecord?
    private var state = State.idle

    /// `peerNodeID` is the node this session must reach; a responder proving another node is refused.
    /// `resumption` is the record an earlier CASE with that node left; one of another node or fabric is not offered.
    public init(
        credentials: OperationalCredentials, peerNodeID: UInt64, localSessionID: UInt16,
        validator: some CASEPeerValidator, random: any RandomSource, resumption: CASEResumptionRecord? = nil
    ) {
        self.credentials = credentials
        self.peerNodeID = peerNodeID
        self.localSessionID = localSessionID
        self.validator = validator
        self.random = random
        self.resumption = resumption.flatMap { $0.peerNodeID == peerNodeID && $0.belongs(to: credentials) ? $0 : nil }
    }

    public mutating func start() -> SessionEstablishmentAction {
        let ephemeralKey = P256.PrivateKey(using: random)
        let initiatorRandom = random.bytes(SecureChannelLimits.randomLength)
        // A MIC that cannot be derived leaves only the full handshake to offer.
        let offered = resumption.flatMap { record in
            (try? CASEResumptionKeys.sigma1MIC(
                sharedSecret: record.sharedSecret, initiatorRandom: initiatorRandom,
                resumptionID: record.resumptionID)).map { (record, $0) }
        }
        let sigma1 = Sigma1(
            initiatorRandom: initiatorRandom,
            initiatorSessionID: localSessionID,
            destinationID: OperationalIdentity.destinationID(
                identityProtectionKey: credentials.identityProtectionKey, initiatorRandom: initiatorRandom,
                rootPublicKey: credentials.rootPublicKey, fabricID: credentials.fabricID, nodeID: peerNodeID
            ),
            initiatorEphemeralPublicKey: ephemeralKey.publicKey.x963Representation,
            resumptionID: offered?.0.resumptionID, initiatorResumeMIC: offered?.1
        ).encodedPayload()
        state = .awaitingSigma2(
            sigma1: sigma1, ephemeralKey: ephemeralKey, initiatorRandom: initiatorRandom, offered: offered?.0)
        return .send(.caseSigma1, sigma1)
    }

    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [SessionEstablishmentAction] {
        do {
            return try handle(opcode: opcode, payload: payload)
        } catch {
            state = .finished
            if case .peerRejected = error { return [.failed(error)] }
            return [.send(.statusReport, StatusReport.invalidParameter.encode()), .failed(error)]
        }
    }

    private mutating func handle(
        opcode: UInt8, payload: [UInt8]
    ) throws(SecureChannelError) -> [SessionEstablishmentAction] {
        if opcode == SecureChannelOpcode.statusReport.rawValue {
            let report = try StatusReport.decode(payload)
            guard case .awaitingStatusReport(let session) = state, report == .sessionEstablishmentSuccess else {
                state = .finished
                throw .peerRejected(report)
            }
            state = .finished
            return [.established(session)]
        }
        guard case .awaitingSigma2(let sigma1Bytes, let ephemeralKey, let initiatorRandom, let offered) = state else {
            throw .unexpectedMessage(opcode: opcode, expected: "StatusReport")
        }
        if opcode == SecureChannelOpcode.caseSigma2Resume.rawValue, let offered {
            return try resume(offered, initiatorRandom: initiatorRandom, payload: payload)
        }
        try expect(opcode, .caseSigma2, "Sigma2")
        let sigma2 = try Sigma2.decodePayload(payload, name: "Sigma2")
        guard sigma2.responderRandom.count == SecureChannelLimits.randomLength,
            sigma2.responderEphemeralPublicKey.count == SecureChannelLimits.shareLength
        else {
            throw .invalidField("Sigma2 has a malformed random or ephemeral key")
        }
        let ipk = credentials.identityProtectionKey
        do {
            let peerEphemeralKey = try P256.PublicKey(x963Representation: sigma2.responderEphemeralPublicKey)
            let sharedSecret = try ephemeralKey.sharedSecret(with: peerEphemeralKey)

            // Sigma2: decrypt and check who the responder is.
            let s2k = try HKDFSHA256.deriveKey(
                inputKeyMaterial: sharedSecret,
                salt: ipk + sigma2.responderRandom + sigma2.responderEphemeralPublicKey + SHA256.hash(sigma1Bytes),
                info: Array("Sigma2".utf8), outputLength: 16
            )
            let decrypted: [UInt8]
            do {
                decrypted = try AESCCM.open(
                    key: s2k, nonce: SecureChannelLimits.sigma2Nonce, ciphertextAndTag: sigma2.encrypted2,
                    additionalData: [])
            } catch .authenticationFailure {
                throw SecureChannelError.invalidField(
                    "Sigma2 does not decrypt: the device is not on this fabric or uses another IPK")
            }
            let responder = try SigmaEncryptedData.decodePayload(decrypted, name: "Sigma2 TBEData")
            let peer = try validator.validate(noc: responder.noc, icac: responder.icac, credentials: credentials)
            guard peer.nodeID == peerNodeID, peer.fabricID == credentials.fabricID else {
                throw SecureChannelError.invalidField(
                    "Sigma2 proves node 0x\(String(peer.nodeID, radix: 16)) on fabric 0x\(String(peer.fabricID, radix: 16)), not the node asked for"
                )
            }
            let signedByResponder = SigmaSignedData(
                noc: responder.noc, icac: responder.icac,
                signerEphemeralPublicKey: sigma2.responderEphemeralPublicKey,
                otherEphemeralPublicKey: ephemeralKey.publicKey.x963Representation
            ).encodedPayload()
            guard
                peer.publicKey.isValidSignature(
                    try P256.ECDSASignature(rawRepresentation: responder.signature), for: signedByResponder)
            else {
                throw SecureChannelError.invalidField("Sigma2 signature does not verify with the responder's NOC")
            }

            // Sigma3: prove who we are.
            let signedByUs = SigmaSignedData(
                noc: credentials.noc, icac: credentials.icac,
                signerEphemeralPublicKey: ephemeralKey.publicKey.x963Representation,
                otherEphemeralPublicKey: sigma2.responderEphemeralPublicKey
            ).encodedPayload()
            let signature = try credentials.operationalKey.signature(for: signedByUs).rawRepresentation
            let tbeData3 = SigmaEncryptedData(
                noc: credentials.noc, icac: credentials.icac, signature: signature, resumptionID: nil
            ).encodedPayload()
            let s3k = try HKDFSHA256.deriveKey(
                inputKeyMaterial: sharedSecret, salt: ipk + SHA256.hash(sigma1Bytes + payload),
                info: Array("Sigma3".utf8), outputLength: 16
            )
            let sigma3 = Sigma3(
                encrypted3: try AESCCM.seal(
                    key: s3k, nonce: SecureChannelLimits.sigma3Nonce, plaintext: tbeData3, additionalData: [])
            )
            .encodedPayload()
            let keys = try SessionKeys(
                sharedSecret: sharedSecret, salt: ipk + SHA256.hash(sigma1Bytes + payload + sigma3))
            var record: CASEResumptionRecord?
            if let id = responder.resumptionID, id.count == SecureChannelLimits.resumptionIDLength {
                record = CASEResumptionRecord(
                    resumptionID: id, sharedSecret: sharedSecret, localNodeID: credentials.nodeID,
                    peerNodeID: peer.nodeID, fabricID: credentials.fabricID, rootPublicKey: credentials.rootPublicKey)
            }
            state = .awaitingStatusReport(
                session: EstablishedSession(
                    localSessionID: localSessionID, peerSessionID: sigma2.responderSessionID, isInitiator: true,
                    keys: keys,
                    peerParameters: sigma2.responderSessionParameters, localNodeID: credentials.nodeID,
                    peerNodeID: peer.nodeID,
                    resumption: record
                ))
            return [.send(.caseSigma3, sigma3)]
        } catch let error as SecureChannelError {
            throw error
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .invalidField("\(error)")
        }
    }

    /// §4.14.2.2.2: the responder proved it still holds the record; confirm with SessionEstablishmentSuccess.
    private mutating func resume(
        _ offered: CASEResumptionRecord, initiatorRandom: [UInt8],
        payload: [UInt8]
    ) throws(SecureChannelError) -> [SessionEstablishmentAction] {
        let sigma2Resume = try Sigma2Resume.decodePayload(payload, name: "Sigma2Resume")
        guard sigma2Resume.resumptionID.count == SecureChannelLimits.resumptionIDLength else {
            throw .invalidField(
                "Sigma2Resume has a resumption ID of \(sigma2Resume.resumptionID.count) bytes, not \(SecureChannelLimits.resumptionIDLength)"
            )
        }
        do {
            let expected = try CASEResumptionKeys.sigma2MIC(
                sharedSecret: offered.sharedSecret, initiatorRandom: initiatorRandom,
                newResumptionID: sigma2Resume.resumptionID)
            guard CASEResumptionKeys.matches(expected, sigma2Resume.sigma2ResumeMIC) else {
                throw SecureChannelError.invalidField(
                    "Sigma2Resume MIC does not verify: the responder does not hold our resumption secret")
            }
            let keys = try CASEResumptionKeys.sessionKeys(
                sharedSecret: offered.sharedSecret, initiatorRandom: initiatorRandom,
                offeredResumptionID: offered.resumptionID)
            state = .finished
            let session = EstablishedSession(
                localSessionID: localSessionID, peerSessionID: sigma2Resume.responderSessionID, isInitiator: true,
                keys: keys,
                peerParameters: sigma2Resume.responderSessionParameters, localNodeID: credentials.nodeID,
                peerNodeID: offered.peerNodeID,
                resumption: offered.renamed(sigma2Resume.resumptionID), isResumed: true
            )
            return [.send(.statusReport, StatusReport.sessionEstablishmentSuccess.encode()), .established(session)]
        } catch let error as SecureChannelError {
            throw error
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .invalidField("\(error)")
        }
    }
}
