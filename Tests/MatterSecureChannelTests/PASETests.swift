import MatterCrypto
import MatterMessaging
import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterSecureChannel

@Suite struct PASETests {
    static let salt = Array("SPAKE2P Key Salt".utf8)
    /// connectedhomeip's published verifier for passcode 20202021, this salt and 1000 iterations.
    static let publishedVerifier =
        "uWFwqugDNGiEck/po7KHwwMwwqZgN10XuyBajPGuyzUEV/iree4lOrao5GuwnlQ65CJzbeUB49s31EH+NEkg0JVI5MGCQGMMT/SRPFNRODm3wH/MBiehuFc6FJ/NH6Rmzw=="

    static func responder(
        verifier: Spake2PlusVerifierData? = nil, iterations: UInt32 = 1000, seed: UInt64 = 2
    ) throws -> PASEResponder {
        PASEResponder(
            verifierData: try verifier
                ?? Spake2Plus.verifierData(passcode: 20_202_021, salt: salt, iterations: Int(iterations)),
            pbkdfParameters: PBKDFParameters(iterations: iterations, salt: salt),
            localSessionID: 0x2222,
            localParameters: SessionParameters(idleInterval: 500, activeInterval: 300),
            random: DeterministicRandom(seed: seed)
        )
    }

    /// Shuttles messages between the two roles until neither has anything to send.
    static func run(
        _ initiator: inout PASEInitiator, _ responder: inout PASEResponder
    )
        -> (
            initiator: [SessionEstablishmentAction], responder: [SessionEstablishmentAction],
            transcript: [SecureChannelOpcode]
        )
    {
        var transcript: [SecureChannelOpcode] = []
        var initiatorOutcomes: [SessionEstablishmentAction] = []
        var responderOutcomes: [SessionEstablishmentAction] = []
        var toResponder = [initiator.start()]
        while !toResponder.isEmpty {
            var toInitiator: [SessionEstablishmentAction] = []
            for case .send(let opcode, let payload) in toResponder {
                transcript.append(opcode)
                for action in responder.receive(opcode: opcode.rawValue, payload: payload) {
                    if case .send = action { toInitiator.append(action) } else { responderOutcomes.append(action) }
                }
            }
            toResponder = []
            for case .send(let opcode, let payload) in toInitiator {
                transcript.append(opcode)
                for action in initiator.receive(opcode: opcode.rawValue, payload: payload) {
                    if case .send = action { toResponder.append(action) } else { initiatorOutcomes.append(action) }
                }
            }
        }
        return (initiatorOutcomes, responderOutcomes, transcript)
    }

    @Test func bothRolesAgreeOnTheSessionKeys() throws {
        var initiator = PASEInitiator(
            passcode: 20_202_021, localSessionID: 0x1111, random: DeterministicRandom(seed: 1))
        var responder = try Self.responder(
            verifier: Spake2PlusVerifierData(serialized: [UInt8](base64: Self.publishedVerifier)))
        let result = Self.run(&initiator, &responder)
        #expect(
            result.transcript == [
                .pbkdfParamRequest, .pbkdfParamResponse, .pasePake1, .pasePake2, .pasePake3, .statusReport,
            ])
        guard case .established(let mine)? = result.initiator.first,
            case .established(let theirs)? = result.responder.first
        else {
            Issue.record("not established: \(result)")
            return
        }
        #expect(mine.localSessionID == 0x1111 && mine.peerSessionID == 0x2222)
        #expect(theirs.localSessionID == 0x2222 && theirs.peerSessionID == 0x1111)
        #expect(mine.encryptionKey == theirs.decryptionKey)
        #expect(mine.decryptionKey == theirs.encryptionKey)
        #expect(mine.encryptionKey != mine.decryptionKey)
        #expect(mine.keys.attestationChallenge == theirs.keys.attestationChallenge)
        #expect(mine.peerParameters == SessionParameters(idleInterval: 500, activeInterval: 300))
        #expect("\(mine.keys)" == "SessionKeys(redacted)")
    }

    @Test func aWrongPasscodeFailsAtPake2AndTellsTheDevice() throws {
        var initiator = PASEInitiator(passcode: 20_202_022, localSessionID: 1, random: DeterministicRandom(seed: 3))
        var responder = try Self.responder()
        let result = Self.run(&initiator, &responder)
        #expect(result.transcript == [.pbkdfParamRequest, .pbkdfParamResponse, .pasePake1, .pasePake2, .statusReport])
        guard case .failed(let error)? = result.initiator.first else {
            Issue.record("initiator did not fail: \(result.initiator)")
            return
        }
        #expect(error == .wrongPasscode)
        #expect(error.description == "wrong passcode: the device's PASE confirmation does not match")
        guard case .failed(.peerRejected(let report))? = result.responder.first else {
            Issue.record("responder did not see the rejection: \(result.responder)")
            return
        }
        #expect(report == .invalidParameter)
    }

    @Test func refusesWeakPBKDFParameters() throws {
        var initiator = PASEInitiator(passcode: 20_202_021, localSessionID: 1, random: DeterministicRandom(seed: 4))
        guard case .send(_, let request) = initiator.start() else { Issue.record("no request"); return }
        let parsed = try PBKDFParamRequest(tlv: TLVReader.decode(request))
        let response = PBKDFParamResponse(
            initiatorRandom: parsed.initiatorRandom, responderRandom: [UInt8](repeating: 7, count: 32),
            responderSessionID: 5, pbkdfParameters: PBKDFParameters(iterations: 999, salt: Self.salt)
        )
        let actions = initiator.receive(
            opcode: SecureChannelOpcode.pbkdfParamResponse.rawValue,
            payload: TLVWriter.encode(TLVElement(response.tlvValue())))
        guard case .failed(let error)? = actions.last else { Issue.record("accepted: \(actions)"); return }
        #expect(error == .invalidField("PBKDF iterations 999 outside 1000…100000"))
    }

    @Test func rejectsAResponseToSomeoneElsesRequest() throws {
        var initiator = PASEInitiator(passcode: 20_202_021, localSessionID: 1, random: DeterministicRandom(seed: 5))
        _ = initiator.start()
        let response = PBKDFParamResponse(
            initiatorRandom: [UInt8](repeating: 1, count: 32), responderRandom: [UInt8](repeating: 7, count: 32),
            responderSessionID: 5, pbkdfParameters: PBKDFParameters(iterations: 1000, salt: Self.salt)
        )
        let actions = initiator.receive(opcode: 0x21, payload: TLVWriter.encode(TLVElement(response.tlvValue())))
        guard case .failed(.invalidField(let reason))? = actions.last else {
            Issue.record("accepted: \(actions)"); return
        }
        #expect(reason.contains("initiatorRandom"))
    }

    @Test func reportsMessagesOutOfOrderAndMalformedOnes() throws {
        var initiator = PASEInitiator(passcode: 20_202_021, localSessionID: 1, random: DeterministicRandom(seed: 6))
        _ = initiator.start()
        guard case .failed(let error)? = initiator.receive(opcode: 0x23, payload: []).last else {
            Issue.record("accepted"); return
        }
        #expect(error == .unexpectedMessage(opcode: 0x23, expected: "PBKDFParamResponse"))

        var responder = try Self.responder()
        let actions = responder.receive(opcode: 0x20, payload: [0x15, 0x30, 0x01])
        guard case .failed(.malformedMessage(let name, _))? = actions.last else {
            Issue.record("accepted: \(actions)"); return
        }
        #expect(name == "PBKDFParamRequest")
        // A refused request is answered with a StatusReport, so the initiator does not wait for its timeout.
        guard case .send(.statusReport, let report)? = actions.first else { Issue.record("no status report"); return }
        #expect(try StatusReport.decode(report) == .invalidParameter)
    }

    @Test func theDevicesRejectionIsReported() throws {
        var initiator = PASEInitiator(passcode: 20_202_021, localSessionID: 1, random: DeterministicRandom(seed: 7))
        _ = initiator.start()
        let busy = StatusReport(generalCode: .busy, secureChannelCode: .busy)
        guard case .failed(let error)? = initiator.receive(opcode: 0x40, payload: busy.encode()).last else {
            Issue.record("accepted"); return
        }
        #expect(error.description == "the peer ended session establishment: BUSY (BUSY)")
    }

    /// The request's bytes, written out from the layout of §4.14.1.2 (tags 1–4, no session parameters).
    @Test func encodesThePBKDFParamRequestAsTheSpecLaysItOut() throws {
        var initiator = PASEInitiator(passcode: 20_202_021, localSessionID: 0x0102, random: FixedRandom(byte: 0xAB))
        guard case .send(.pbkdfParamRequest, let payload) = initiator.start() else {
            Issue.record("no request"); return
        }
        let expected: [UInt8] =
            [0x15, 0x30, 0x01, 0x20] + [UInt8](repeating: 0xAB, count: 32)
            + [0x25, 0x02, 0x02, 0x01, 0x24, 0x03, 0x00, 0x28, 0x04, 0x18]
        #expect(payload == expected)
    }
}

/// Returns the same byte every time: makes the initiator random visible in the expected bytes.
struct FixedRandom: RandomSource {
    let byte: UInt8
    func bytes(_ count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }
}

@Suite struct StatusReportTests {
    @Test func encodesTheSecureChannelCodesLittleEndian() throws {
        #expect(StatusReport.sessionEstablishmentSuccess.encode() == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(StatusReport.invalidParameter.encode() == [1, 0, 0, 0, 0, 0, 2, 0])
        let interactionModelBusy = StatusReport(
            generalCode: .busy, protocolID: 0xFFF1_0001, protocolCode: 0x0102, protocolData: [9])
        #expect(interactionModelBusy.encode() == [8, 0, 0x01, 0x00, 0xF1, 0xFF, 0x02, 0x01, 9])
        #expect(try StatusReport.decode(interactionModelBusy.encode()) == interactionModelBusy)
        #expect(throws: SecureChannelError.malformedStatusReport(length: 7)) {
            try StatusReport.decode([0, 0, 0, 0, 0, 0, 0])
        }
    }
}
