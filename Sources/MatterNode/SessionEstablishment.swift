import MatterCrypto
import MatterMessaging
import MatterPlatform
import MatterSecureChannel

/// Runs PASE or CASE over the transport: the state machine decides, this carries its messages.
public enum SessionEstablishment {
    /// A secure session on the transport and what establishing it learned.
    public struct Result: Sendable {
        public let session: SessionHandle
        public let established: EstablishedSession
        public let peer: PeerAddress
    }

    /// PASE with a commissionable device, proving the passcode from its onboarding payload: over UDP, or over the
    /// Bluetooth LE connection to a device fresh from its box.
    public static func pase(
        with peer: PeerAddress, passcode: UInt32, over transport: MatterTransport,
        random: any RandomSource = SystemRandom()
    ) async throws(SessionEstablishmentError) -> Result {
        let localSessionID = try await reserveSessionID(on: transport, random: random, name: "PASE")
        return try await run(
            PASEInitiator(passcode: passcode, localSessionID: localSessionID, random: random),
            with: peer, localSessionID: localSessionID, over: transport, name: "PASE")
    }

    /// CASE with an operational node of our fabric (found on its IP network by DNS-SD, so over UDP), resuming the
    /// session `resumption` records when the node still knows it. The result's `established.resumption` is the record
    /// to offer next time.
    public static func `case`(
        with peer: SocketAddress, nodeID: UInt64, credentials: OperationalCredentials,
        validator: some CASEPeerValidator, over transport: MatterTransport,
        random: any RandomSource = SystemRandom(),
        resumption: CASEResumptionRecord? = nil
    ) async throws(SessionEstablishmentError) -> Result {
        let localSessionID = try await reserveSessionID(on: transport, random: random, name: "CASE")
        let initiator = CASEInitiator(
            credentials: credentials, peerNodeID: nodeID, localSessionID: localSessionID,
            validator: validator, random: random, resumption: resumption)
        return try await run(
            initiator, with: .udp(peer), localSessionID: localSessionID, over: transport, name: "CASE")
    }

    private static func run(
        _ initiator: some SessionEstablishmentInitiator, with peer: PeerAddress, localSessionID: UInt16,
        over transport: MatterTransport, name: String
    ) async throws(SessionEstablishmentError) -> Result {
        var initiator = initiator
        let unsecured = await transport.openUnsecuredSession(to: peer)
        // The unsecured session outlives the establishment a moment, as the responder's does: the initiator's last
        // message (the StatusReport that completes a resumption, Matter Core §4.14.2.2.1) is retransmitted until the
        // peer acknowledges it, and the peer's retransmitted messages are acknowledged. Removed at once, a lost
        // StatusReport left the peer without the session the initiator went on to use: through loss, a resumed CASE
        // then had every request on it go unanswered. An establishment that failed or was cancelled ends it at once:
        // nothing of it is retransmitted on the process's one transport.
        var succeeded = false
        defer {
            if succeeded {
                Task { [clock = transport.clock] in
                    try? await clock.sleep(for: NodeTiming.unsecuredSessionLinger)
                    await transport.removeSession(unsecured)
                }
            } else {
                Task {
                    await transport.removeSession(unsecured)
                    await transport.releaseSessionID(localSessionID)
                }
            }
        }
        do {
            let exchange = try await transport.openExchange(on: unsecured)
            var pending = [initiator.start()]
            while true {
                for action in pending {
                    switch action {
                    case .send(let opcode, let payload):
                        try await transport.send(
                            ExchangeMessage(protocolID: .secureChannel, opcode: opcode.rawValue, payload: payload),
                            on: exchange)
                    case .established(let established):
                        await transport.close(exchange)
                        let parameters = SecureSessionParameters(
                            localSessionID: established.localSessionID, peerSessionID: established.peerSessionID,
                            encryptionKey: established.encryptionKey, decryptionKey: established.decryptionKey,
                            localNonceNodeID: established.sendingNonceNodeID,
                            peerNonceNodeID: established.receivingNonceNodeID
                        )
                        let session = try await transport.addSecureSession(
                            parameters, peer: peer, peerParameters: established.mrpParameters)
                        // A caller that gave up meanwhile (a step's deadline fired) would drop the session unseen:
                        // it is removed here instead of staying on the process's one transport.
                        guard !Task.isCancelled else {
                            await transport.closeSession(session)
                            throw SessionEstablishmentError.transport(name, "cancelled")
                        }
                        succeeded = true
                        return Result(session: session, established: established, peer: peer)
                    case .failed(let error):
                        await transport.close(exchange)
                        throw SessionEstablishmentError.rejected(name, error)
                    }
                }
                let message = try await transport.receive(on: exchange, timeout: NodeTiming.sessionEstablishmentStep)
                guard message.protocolID == .secureChannel else {
                    throw SessionEstablishmentError.unexpectedProtocol(name, message.protocolID)
                }
                pending = initiator.receive(opcode: message.opcode, payload: message.payload)
            }
        } catch let error as SessionEstablishmentError {
            throw error
        } catch {
            throw .transport(name, "\(error)")
        }
    }

    /// A local session ID no session of the transport uses, reserved for this establishment.
    private static func reserveSessionID(
        on transport: MatterTransport, random: any RandomSource, name: String
    ) async throws(SessionEstablishmentError) -> UInt16 {
        do {
            return try await transport.reserveSessionID(in: SecureChannelLimits.sessionIDs, random: random)
        } catch {
            throw .transport(name, "\(error)")
        }
    }
}

public enum SessionEstablishmentError: Error, Sendable, CustomStringConvertible {
    case rejected(String, SecureChannelError)
    case unexpectedProtocol(String, ProtocolID)
    case transport(String, String)

    /// Why, without naming the protocol (for callers whose own message names the step).
    public var reason: String {
        switch self {
        case .rejected(_, let error): "\(error)"
        case .unexpectedProtocol(_, let protocolID): "the peer answered with protocol \(protocolID)"
        case .transport(_, let reason): reason
        }
    }

    public var description: String {
        switch self {
        case .rejected(let name, let error): "\(name) failed: \(error)"
        case .unexpectedProtocol(let name, let protocolID):
            "\(name) failed: the peer answered with protocol \(protocolID)"
        case .transport(let name, let reason): "\(name) failed: \(reason)"
        }
    }
}
