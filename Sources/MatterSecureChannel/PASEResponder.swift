import MatterCrypto
import MatterMessaging

// Matter Core §4.14.1 PASE, responder (device) side. It holds only the verifier (w0, L), never the passcode.
public struct PASEResponder: Sendable {
    private enum State: Sendable {
        case awaitingPBKDFParamRequest
        case awaitingPake1(context: [UInt8], peerSessionID: UInt16, peerParameters: SessionParameters?)
        case awaitingPake3(verifier: Spake2PlusVerifier, peerSessionID: UInt16, peerParameters: SessionParameters?)
        case finished
    }

    private let verifierData: Spake2PlusVerifierData
    private let pbkdfParameters: PBKDFParameters
    private let localSessionID: UInt16
    private let localParameters: SessionParameters?
    private let random: any RandomSource
    private var state = State.awaitingPBKDFParamRequest

    public init(
        verifierData: Spake2PlusVerifierData, pbkdfParameters: PBKDFParameters, localSessionID: UInt16,
        localParameters: SessionParameters? = nil, random: any RandomSource
    ) {
        self.verifierData = verifierData
        self.pbkdfParameters = pbkdfParameters
        self.localSessionID = localSessionID
        self.localParameters = localParameters
        self.random = random
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
            throw .peerRejected(try StatusReport.decode(payload))
        }
        switch state {
        case .awaitingPBKDFParamRequest:
            try expect(opcode, .pbkdfParamRequest, "PBKDFParamRequest")
            let request = try PBKDFParamRequest.decodePayload(payload, name: "PBKDFParamRequest")
            guard request.initiatorRandom.count == SecureChannelLimits.randomLength else {
                throw .invalidField(
                    "PBKDFParamRequest initiatorRandom has \(request.initiatorRandom.count) bytes, not 32")
            }
            guard request.passcodeID == 0 else {
                throw .invalidField("PBKDFParamRequest asks for passcode ID \(request.passcodeID); only 0 exists")
            }
            let response = PBKDFParamResponse(
                initiatorRandom: request.initiatorRandom,
                responderRandom: random.bytes(SecureChannelLimits.randomLength),
                responderSessionID: localSessionID,
                pbkdfParameters: request.hasPBKDFParameters ? nil : pbkdfParameters,
                responderSessionParameters: localParameters
            ).encodedPayload()
            let context = SHA256.hash(SecureChannelLimits.paseContextPrefix + payload + response)
            state = .awaitingPake1(
                context: context, peerSessionID: request.initiatorSessionID,
                peerParameters: request.initiatorSessionParameters)
            return [.send(.pbkdfParamResponse, response)]

        case .awaitingPake1(let context, let peerSessionID, let peerParameters):
            try expect(opcode, .pasePake1, "Pake1")
            let pake1 = try Pake1.decodePayload(payload, name: "Pake1")
            do {
                var verifier = try Spake2PlusVerifier(context: context, verifierData: verifierData, random: random)
                let (shareV, confirmV) = try verifier.respond(shareP: pake1.pA)
                state = .awaitingPake3(verifier: verifier, peerSessionID: peerSessionID, peerParameters: peerParameters)
                return [.send(.pasePake2, Pake2(pB: shareV, cB: confirmV).encodedPayload())]
            } catch {
                throw .crypto(error)
            }

        case .awaitingPake3(let verifier, let peerSessionID, let peerParameters):
            try expect(opcode, .pasePake3, "Pake3")
            let pake3 = try Pake3.decodePayload(payload, name: "Pake3")
            let keys: SessionKeys
            do {
                keys = try SessionKeys(sharedSecret: verifier.finish(confirmP: pake3.cA), salt: [])
            } catch .authenticationFailure {
                throw .wrongPasscode
            } catch {
                throw .crypto(error)
            }
            state = .finished
            let session = EstablishedSession(
                localSessionID: localSessionID, peerSessionID: peerSessionID, isInitiator: false,
                keys: keys, peerParameters: peerParameters
            )
            return [.send(.statusReport, StatusReport.sessionEstablishmentSuccess.encode()), .established(session)]

        case .finished:
            throw .unexpectedMessage(opcode: opcode, expected: "nothing (PASE finished)")
        }
    }
}
