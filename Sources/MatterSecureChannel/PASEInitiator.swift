import MatterCrypto
import MatterMessaging

// Matter Core §4.14.1 Passcode-Authenticated Session Establishment, initiator (commissioner) side:
//   PBKDFParamRequest → PBKDFParamResponse → Pake1 → Pake2 → Pake3 → StatusReport.
// Sans-IO: messages in, actions out; the driver owns the exchange, retransmissions and timeouts.
public struct PASEInitiator: Sendable {
    private enum State: Sendable {
        case idle
        case awaitingPBKDFParamResponse(request: [UInt8], initiatorRandom: [UInt8])
        /// w1 is still being derived while Pake1 is on its way (`Spake2Plus.computeW0`).
        case awaitingPake2(
            prover: Spake2PlusProver, w1: PendingScalar, peerSessionID: UInt16, peerParameters: SessionParameters?)
        case awaitingStatusReport(session: EstablishedSession)
        case finished
    }

    private let passcode: UInt32
    private let localSessionID: UInt16
    private let localParameters: SessionParameters?
    private let random: any RandomSource
    private var state = State.idle

    public init(
        passcode: UInt32, localSessionID: UInt16, localParameters: SessionParameters? = nil, random: any RandomSource
    ) {
        self.passcode = passcode
        self.localSessionID = localSessionID
        self.localParameters = localParameters
        self.random = random
    }

    /// The PBKDFParamRequest that opens the exchange.
    public mutating func start() -> SessionEstablishmentAction {
        let initiatorRandom = random.bytes(SecureChannelLimits.randomLength)
        let request = PBKDFParamRequest(
            initiatorRandom: initiatorRandom, initiatorSessionID: localSessionID,
            hasPBKDFParameters: false, initiatorSessionParameters: localParameters
        ).encodedPayload()
        state = .awaitingPBKDFParamResponse(request: request, initiatorRandom: initiatorRandom)
        return .send(.pbkdfParamRequest, request)
    }

    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [SessionEstablishmentAction] {
        do {
            return try handle(opcode: opcode, payload: payload)
        } catch {
            state = .finished
            // A peer that proved a different passcode is told so, as §4.14.1.3 asks.
            return error == .wrongPasscode
                ? [.send(.statusReport, StatusReport.invalidParameter.encode()), .failed(error)]
                : [.failed(error)]
        }
    }

    private mutating func handle(
        opcode: UInt8, payload: [UInt8]
    ) throws(SecureChannelError) -> [SessionEstablishmentAction] {
        if opcode == SecureChannelOpcode.statusReport.rawValue, case .awaitingStatusReport(let session) = state {
            let report = try StatusReport.decode(payload)
            state = .finished
            guard report == .sessionEstablishmentSuccess else { throw .peerRejected(report) }
            return [.established(session)]
        }
        if opcode == SecureChannelOpcode.statusReport.rawValue {
            throw .peerRejected(try StatusReport.decode(payload))
        }
        switch state {
        case .awaitingPBKDFParamResponse(let request, let initiatorRandom):
            try expect(opcode, .pbkdfParamResponse, "PBKDFParamResponse")
            let response = try PBKDFParamResponse.decodePayload(payload, name: "PBKDFParamResponse")
            guard response.initiatorRandom == initiatorRandom else {
                throw .invalidField("PBKDFParamResponse echoes a different initiatorRandom")
            }
            guard response.responderRandom.count == SecureChannelLimits.randomLength else {
                throw .invalidField(
                    "PBKDFParamResponse responderRandom has \(response.responderRandom.count) bytes, not 32")
            }
            guard response.responderSessionID != 0 else {
                throw .invalidField("PBKDFParamResponse responderSessionId is 0, the unsecured session's ID")
            }
            guard let parameters = response.pbkdfParameters else {
                throw .invalidField("PBKDFParamResponse carries no PBKDF parameters")
            }
            try PASEValidation.check(parameters)
            let context = SHA256.hash(SecureChannelLimits.paseContextPrefix + request + payload)
            let prover: Spake2PlusProver
            let w1: PendingScalar
            do {
                let w0: [UInt8]
                (w0, w1) = try Spake2Plus.computeW0(
                    passcode: passcode, salt: parameters.salt, iterations: Int(parameters.iterations))
                prover = try Spake2PlusProver(context: context, w0: w0, random: random)
            } catch {
                throw .crypto(error)
            }
            state = .awaitingPake2(
                prover: prover, w1: w1, peerSessionID: response.responderSessionID,
                peerParameters: response.responderSessionParameters)
            return [.send(.pasePake1, Pake1(pA: prover.shareP).encodedPayload())]

        case .awaitingPake2(let prover, let w1, let peerSessionID, let peerParameters):
            try expect(opcode, .pasePake2, "Pake2")
            let pake2 = try Pake2.decodePayload(payload, name: "Pake2")
            guard pake2.pB.count == SecureChannelLimits.shareLength,
                pake2.cB.count == SecureChannelLimits.confirmationLength
            else {
                throw .invalidField("Pake2 has a \(pake2.pB.count)-byte pB and a \(pake2.cB.count)-byte cB")
            }
            let confirmP: [UInt8]
            let keys: SessionKeys
            do {
                let result = try prover.respond(shareV: pake2.pB, confirmV: pake2.cB, w1: w1.value())
                confirmP = result.confirmP
                keys = try SessionKeys(sharedSecret: result.sharedKey, salt: [])
            } catch .authenticationFailure {
                throw .wrongPasscode
            } catch {
                throw .crypto(error)
            }
            let session = EstablishedSession(
                localSessionID: localSessionID, peerSessionID: peerSessionID, isInitiator: true,
                keys: keys, peerParameters: peerParameters
            )
            state = .awaitingStatusReport(session: session)
            return [.send(.pasePake3, Pake3(cA: confirmP).encodedPayload())]

        case .idle:
            throw .unexpectedMessage(opcode: opcode, expected: "nothing (PASE not started)")
        case .awaitingStatusReport:
            throw .unexpectedMessage(opcode: opcode, expected: "StatusReport")
        case .finished:
            throw .unexpectedMessage(opcode: opcode, expected: "nothing (PASE finished)")
        }
    }
}

enum PASEValidation {
    static func check(_ parameters: PBKDFParameters) throws(SecureChannelError) {
        guard SecureChannelLimits.pbkdfIterations.contains(parameters.iterations) else {
            throw .invalidField("PBKDF iterations \(parameters.iterations) outside 1000…100000")
        }
        guard SecureChannelLimits.pbkdfSaltLength.contains(parameters.salt.count) else {
            throw .invalidField("PBKDF salt has \(parameters.salt.count) bytes, not 16…32")
        }
    }
}

func expect(_ opcode: UInt8, _ expected: SecureChannelOpcode, _ name: String) throws(SecureChannelError) {
    guard opcode == expected.rawValue else { throw .unexpectedMessage(opcode: opcode, expected: name) }
}
