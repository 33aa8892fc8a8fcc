import MatterCrypto
import MatterMessaging
import MatterTestSupport
import Testing

@testable import MatterSecureChannel

@Suite struct CASEResumptionTests {
    static let hub = CASETests.credentials(nodeID: 0x1, seed: 11)
    static let device = CASETests.credentials(nodeID: 0xCD55_44AA_7B13_EF14, seed: 12)
    static let validator = CASETests.validator(hub, device)

    static func initiator(seed: UInt64, resumption: CASEResumptionRecord?) -> CASEInitiator {
        CASEInitiator(
            credentials: hub, peerNodeID: device.nodeID, localSessionID: 0x0101, validator: validator,
            random: DeterministicRandom(seed: seed), resumption: resumption)
    }

    static func responder(seed: UInt64, remembering records: [CASEResumptionRecord] = []) -> CASEResponder {
        var table = CASEResumptionTable()
        for record in records { table.remember(record) }
        return CASEResponder(
            fabrics: [device], localSessionID: 0x0202, validator: validator, random: DeterministicRandom(seed: seed),
            resumptions: table)
    }

    static func sessions(
        _ result: (
            initiator: [SessionEstablishmentAction], responder: [SessionEstablishmentAction],
            transcript: [SecureChannelOpcode]
        )
    )
        throws -> (initiator: EstablishedSession, responder: EstablishedSession)
    {
        guard case .established(let mine)? = result.initiator.first,
            case .established(let theirs)? = result.responder.first
        else {
            throw SecureChannelError.invalidField("not established: \(result)")
        }
        return (mine, theirs)
    }

    /// A full CASE between hub and device, returning the records each side keeps.
    static func fullCASE() throws -> (initiator: CASEResumptionRecord, responder: CASEResumptionRecord) {
        var initiator = initiator(seed: 30, resumption: nil)
        var responder = responder(seed: 31)
        let (mine, theirs) = try sessions(CASETests.run(&initiator, &responder))
        let ours = try #require(mine.resumption)
        let deviceRecord = try #require(theirs.resumption)
        return (ours, deviceRecord)
    }

    @Test func aFullCASELeavesTheSameRecordOnBothSides() throws {
        let records = try Self.fullCASE()
        #expect(records.initiator.resumptionID.count == 16)
        #expect(records.initiator.resumptionID == records.responder.resumptionID)
        #expect(records.initiator.sharedSecret == records.responder.sharedSecret)
        #expect(records.initiator.peerNodeID == Self.device.nodeID && records.responder.peerNodeID == Self.hub.nodeID)
        #expect(records.initiator.localNodeID == Self.hub.nodeID && records.responder.localNodeID == Self.device.nodeID)
        #expect(!"\(records.initiator)".contains(records.initiator.sharedSecret.map { String($0, radix: 16) }.joined()))
    }

    @Test func resumingSkipsSigma3AndBothSidesAgree() throws {
        let records = try Self.fullCASE()
        var initiator = Self.initiator(seed: 32, resumption: records.initiator)
        var responder = Self.responder(seed: 33, remembering: [records.responder])
        let result = CASETests.run(&initiator, &responder)
        #expect(result.transcript == [.caseSigma1, .caseSigma2Resume, .statusReport])
        let (mine, theirs) = try Self.sessions(result)
        #expect(mine.isResumed && theirs.isResumed)
        #expect(mine.encryptionKey == theirs.decryptionKey && mine.decryptionKey == theirs.encryptionKey)
        #expect(mine.keys.attestationChallenge == theirs.keys.attestationChallenge)
        #expect(mine.peerSessionID == 0x0202 && theirs.peerSessionID == 0x0101)
        #expect(mine.peerNodeID == Self.device.nodeID && theirs.peerNodeID == Self.hub.nodeID)
        // Both file the resumed session under the responder's fresh ID, with the original secret.
        let newMine = try #require(mine.resumption)
        let newTheirs = try #require(theirs.resumption)
        #expect(
            newMine.resumptionID == newTheirs.resumptionID && newMine.resumptionID != records.initiator.resumptionID)
        #expect(newMine.sharedSecret == records.initiator.sharedSecret)
    }

    @Test func resumedKeysDifferFromTheSessionTheyResume() throws {
        let records = try Self.fullCASE()
        var first = Self.initiator(seed: 34, resumption: records.initiator)
        var firstResponder = Self.responder(seed: 35, remembering: [records.responder])
        var second = Self.initiator(seed: 36, resumption: records.initiator)
        var secondResponder = Self.responder(seed: 37, remembering: [records.responder])
        let one = try Self.sessions(CASETests.run(&first, &firstResponder)).initiator
        let two = try Self.sessions(CASETests.run(&second, &secondResponder)).initiator
        // A fresh initiatorRandom salts each resumption, so two resumptions of one record never share keys.
        #expect(one.encryptionKey != two.encryptionKey)
    }

    @Test func anUnknownResumptionIDGetsTheFullSigma2() throws {
        let records = try Self.fullCASE()
        var initiator = Self.initiator(seed: 38, resumption: records.initiator)
        var responder = Self.responder(seed: 39)
        let result = CASETests.run(&initiator, &responder)
        #expect(result.transcript == [.caseSigma1, .caseSigma2, .caseSigma3, .statusReport])
        let (mine, theirs) = try Self.sessions(result)
        #expect(!mine.isResumed && !theirs.isResumed)
        #expect(mine.encryptionKey == theirs.decryptionKey)
    }

    @Test func aWrongResumeMICGetsTheFullSigma2() throws {
        let records = try Self.fullCASE()
        let forged = CASEResumptionRecord(
            resumptionID: records.initiator.resumptionID, sharedSecret: [UInt8](repeating: 0x5A, count: 32),
            localNodeID: Self.hub.nodeID, peerNodeID: Self.device.nodeID, fabricID: Self.hub.fabricID,
            rootPublicKey: Self.hub.rootPublicKey)
        var initiator = Self.initiator(seed: 40, resumption: forged)
        var responder = Self.responder(seed: 41, remembering: [records.responder])
        let result = CASETests.run(&initiator, &responder)
        #expect(result.transcript == [.caseSigma1, .caseSigma2, .caseSigma3, .statusReport])
        let (mine, theirs) = try Self.sessions(result)
        #expect(!mine.isResumed && mine.encryptionKey == theirs.decryptionKey)
    }

    @Test func aRecordOfAnotherNodeIsNotOffered() throws {
        let records = try Self.fullCASE()
        var initiator = CASEInitiator(
            credentials: Self.hub, peerNodeID: 0x77, localSessionID: 0x0101, validator: Self.validator,
            random: DeterministicRandom(seed: 42), resumption: records.initiator)
        guard case .send(.caseSigma1, let payload) = initiator.start() else { Issue.record("no Sigma1"); return }
        let sigma1 = try Sigma1.decodePayload(payload, name: "Sigma1")
        #expect(sigma1.resumptionID == nil && sigma1.initiatorResumeMIC == nil)
    }

    @Test func theInitiatorRefusesASigma2ResumeWithAWrongMIC() throws {
        let records = try Self.fullCASE()
        var initiator = Self.initiator(seed: 43, resumption: records.initiator)
        var responder = Self.responder(seed: 44, remembering: [records.responder])
        guard case .send(_, let sigma1) = initiator.start(),
            case .send(.caseSigma2Resume, let answer)? = responder.receive(
                opcode: SecureChannelOpcode.caseSigma1.rawValue, payload: sigma1
            ).first
        else { Issue.record("no Sigma2Resume"); return }
        var sigma2Resume = try Sigma2Resume.decodePayload(answer, name: "Sigma2Resume")
        sigma2Resume.sigma2ResumeMIC[0] ^= 1
        let actions = initiator.receive(
            opcode: SecureChannelOpcode.caseSigma2Resume.rawValue, payload: sigma2Resume.encodedPayload())
        guard actions.count == 2, case .send(.statusReport, let report) = actions[0],
            case .failed(let error) = actions[1]
        else {
            Issue.record("\(actions)")
            return
        }
        #expect(try StatusReport.decode(report) == .invalidParameter)
        #expect(
            error
                == .invalidField("Sigma2Resume MIC does not verify: the responder does not hold our resumption secret"))
    }

    /// Matter Core §4.14.2.3 Sigma2_Resume: tags 1 resumptionID, 2 sigma2ResumeMIC, 3 responderSessionID.
    @Test func sigma2ResumeEncodesItsTags() throws {
        let message = Sigma2Resume(
            resumptionID: [UInt8](repeating: 0xA1, count: 16), sigma2ResumeMIC: [UInt8](repeating: 0xB2, count: 16),
            responderSessionID: 0x1234)
        let expected =
            [0x15, 0x30, 0x01, 0x10] + [UInt8](repeating: 0xA1, count: 16)
            + [0x30, 0x02, 0x10] + [UInt8](repeating: 0xB2, count: 16)
            + [0x25, 0x03, 0x34, 0x12, 0x18]
        #expect(message.encodedPayload() == expected)
        #expect(try Sigma2Resume.decodePayload(expected, name: "Sigma2Resume") == message)
    }
}
