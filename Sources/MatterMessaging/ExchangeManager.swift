import MatterCrypto

// Matter Core §4.10 Message Exchanges, §4.12 Message Reliability Protocol
/// The exchange layer of one node, sans-IO: it turns application messages into datagrams and datagrams into
/// application messages, acknowledges, retransmits and drops duplicates. It reads no clock and touches no
/// socket; every call takes `now` and returns the actions its driver must carry out. After every call the
/// driver arms one timer at `nextDeadline` and calls `handleTimer(now:)` when it fires.
public struct ExchangeManager<PeerAddress: LinkPeer>: Sendable {
    /// What the driver must do.
    public enum Action: Sendable {
        /// Send this datagram to this peer.
        case send([UInt8], to: PeerAddress)
        /// Hand this message to the application.
        case deliver(ExchangeEvent)
        /// Hand this group message, still sealed, to the group messaging layer (§4.16): it holds the keys.
        case deliverGroupMessage(GroupDatagram, from: PeerAddress)
        /// The exchange is over without success; it is no longer open.
        case exchangeFailed(ExchangeHandle, ExchangeError)
    }

    /// Identifies an unsecured session a peer started: its address and the ephemeral node ID it chose.
    struct UnsecuredPeer: Hashable, Sendable {
        let address: PeerAddress
        let ephemeralNodeID: UInt64
    }

    public internal(set) var sessions: [SessionHandle: Session<PeerAddress>] = [:]
    var exchanges: [ExchangeHandle: Exchange] = [:]
    var sessionsByEphemeralNodeID: [UInt64: SessionHandle] = [:]
    var sessionsByUnsecuredPeer: [UnsecuredPeer: SessionHandle] = [:]
    var sessionsByLocalSessionID: [UInt16: SessionHandle] = [:]
    /// Local session IDs handed to establishments still under way (`reserveSessionID`): no other takes them meanwhile.
    var reservedSessionIDs: Set<UInt16> = []
    /// §4.5.1.1: one counter for every unsecured message this node sends.
    var globalUnencryptedCounter: MessageCounter
    private var nextSessionNumber: UInt32 = 1
    private var nextExchangeID: UInt16
    let random: any RandomSource

    public init(random: some RandomSource) {
        self.random = random
        globalUnencryptedCounter = MessageCounter(kind: .globalUnencrypted, random: random)
        // §4.10.2: the first exchange ID is random, later ones count up from it.
        nextExchangeID = random.bytes(2).reversed().reduce(0) { ($0 << 8) | UInt16($1) }
    }

    // MARK: Sessions

    /// Starts an unsecured session (for PASE or CASE) with a fresh random ephemeral node ID.
    public mutating func openUnsecuredSession(
        to peer: PeerAddress, peerParameters: MRPParameters = .default
    ) -> SessionHandle {
        let range = MessagingConstants.operationalNodeIDRange
        let drawn = random.bytes(8).reversed().reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        var nodeID = range.lowerBound + drawn % (range.upperBound - range.lowerBound + 1)
        // A collision is astronomically unlikely with real randomness; stepping past it keeps IDs unique
        // even with a degenerate source, and ends because there are fewer sessions than IDs.
        while sessionsByEphemeralNodeID[nodeID] != nil {
            nodeID = nodeID == range.upperBound ? range.lowerBound : nodeID + 1
        }
        let handle = addSession(
            .unsecuredInitiator(localEphemeralNodeID: nodeID), peer: peer, peerParameters: peerParameters)
        sessionsByEphemeralNodeID[nodeID] = handle
        return handle
    }

    /// A local session ID for a PASE or CASE establishment about to start, in `range`, from `start` on: one no
    /// session has and no other establishment under way holds (Matter Core §4.13.1.3 and §4.14.2.3: the initiator's
    /// and the responder's IDs are unused on their nodes). It stays reserved until the session is added with it or
    /// the ID is released. Every establishment of the process, as initiator or responder, reserves here: one
    /// transport carries them all, so IDs drawn at random on their own collide once a few hundred sessions are open.
    public mutating func reserveSessionID(
        in range: ClosedRange<UInt16>, startingAt start: UInt16
    ) throws(ExchangeError) -> UInt16 {
        var candidate = range.contains(start) ? start : range.lowerBound
        for _ in 0..<range.count {
            if sessionsByLocalSessionID[candidate] == nil, !reservedSessionIDs.contains(candidate) {
                reservedSessionIDs.insert(candidate)
                return candidate
            }
            candidate = candidate == range.upperBound ? range.lowerBound : candidate + 1
        }
        throw .noFreeSessionID
    }

    /// An establishment that reserved `sessionID` ended without a session: the ID is free again.
    public mutating func releaseSessionID(_ sessionID: UInt16) {
        reservedSessionIDs.remove(sessionID)
    }

    /// Adds a session PASE or CASE established, taking over its ID's reservation.
    public mutating func addSecureSession(
        _ parameters: SecureSessionParameters, peer: PeerAddress, peerParameters: MRPParameters = .default
    ) throws(ExchangeError) -> SessionHandle {
        guard sessionsByLocalSessionID[parameters.localSessionID] == nil else {
            throw .sessionIDInUse(parameters.localSessionID)
        }
        reservedSessionIDs.remove(parameters.localSessionID)
        let handle = addSession(.secure(parameters), peer: peer, peerParameters: peerParameters)
        sessionsByLocalSessionID[parameters.localSessionID] = handle
        return handle
    }

    /// Forgets a session; its exchanges end without further events or acknowledgements.
    public mutating func removeSession(_ handle: SessionHandle) {
        guard let session = sessions.removeValue(forKey: handle) else { return }
        switch session.kind {
        case let .unsecuredInitiator(localEphemeralNodeID):
            sessionsByEphemeralNodeID[localEphemeralNodeID] = nil
        case let .unsecuredResponder(peerEphemeralNodeID):
            sessionsByUnsecuredPeer[UnsecuredPeer(address: session.peerAddress, ephemeralNodeID: peerEphemeralNodeID)] =
                nil
        case let .secure(parameters):
            sessionsByLocalSessionID[parameters.localSessionID] = nil
        }
        exchanges = exchanges.filter { $0.key.session != handle }
    }

    mutating func addSession(_ kind: SessionKind, peer: PeerAddress, peerParameters: MRPParameters) -> SessionHandle {
        let handle = SessionHandle(rawValue: nextSessionNumber)
        nextSessionNumber += 1
        sessions[handle] = Session(kind: kind, peerAddress: peer, peerParameters: peerParameters, random: random)
        return handle
    }

    // MARK: Exchanges

    /// Opens an exchange on `session` with us as initiator.
    public mutating func openExchange(on session: SessionHandle) throws(ExchangeError) -> ExchangeHandle {
        guard sessions[session] != nil else { throw .unknownSession(session) }
        var handle = ExchangeHandle(session: session, exchangeID: nextExchangeID, role: .initiator)
        // Skip IDs still open on this session; after one full turn of the 16-bit space every ID is taken.
        var attempts = 0
        while exchanges[handle] != nil {
            attempts += 1
            guard attempts <= Int(UInt16.max) else { throw .noFreeExchangeID(session) }
            handle = ExchangeHandle(session: session, exchangeID: handle.exchangeID &+ 1, role: .initiator)
        }
        nextExchangeID = handle.exchangeID &+ 1
        exchanges[handle] = Exchange()
        return handle
    }

    /// Sends `message` on `exchange`, piggybacking any pending acknowledgement. A reliable message (R flag)
    /// is retransmitted until acknowledged or until MRP gives up; on a reliable link (`LinkPeer`) the link itself
    /// delivers it, and MRP stays out of the way.
    public mutating func send(
        _ message: ExchangeMessage, on exchange: ExchangeHandle, reliably: Bool = true, now: Instant
    ) throws(ExchangeError) -> [Action] {
        guard var state = exchanges[exchange], !state.isClosed else { throw .unknownExchange(exchange) }
        guard let session = sessions[exchange.session] else { throw .unknownSession(exchange.session) }
        let reliably = reliably && !session.peerAddress.isReliableLink
        if reliably, state.outstanding != nil {
            throw .previousMessageUnacknowledged(exchange, opcode: message.opcode)
        }
        let protocolHeader = ProtocolHeader(
            isInitiator: exchange.role == .initiator,
            needsAcknowledgement: reliably,
            acknowledgedMessageCounter: state.pendingAcknowledgement?.messageCounter,
            opcode: message.opcode,
            exchangeID: exchange.exchangeID,
            protocolID: message.protocolID)
        let (datagram, counter, peer) = try encode(protocolHeader, payload: message.payload, on: exchange.session)
        // Refused before the exchange changes: its pending acknowledgement stays pending (a message counter is spent,
        // which §4.5 allows).
        guard datagram.count <= peer.maximumMessageSize else {
            throw .messageTooLarge(exchange, size: datagram.count, limit: peer.maximumMessageSize)
        }
        state.pendingAcknowledgement = nil
        if reliably {
            state.outstanding = Exchange.OutstandingMessage(
                datagram: datagram, messageCounter: counter, protocolID: message.protocolID, opcode: message.opcode,
                transmissions: 1, deadline: now + retransmissionTimeout(for: session, priorTransmissions: 0, now: now))
        }
        exchanges[exchange] = state
        return [.send(datagram, to: peer)]
    }

    /// Closes `exchange`: a pending acknowledgement goes out now as a standalone acknowledgement, and a
    /// message still awaiting its acknowledgement keeps being retransmitted; should that fail, an
    /// `.exchangeFailed` action still reports it.
    public mutating func close(_ exchange: ExchangeHandle, now: Instant) -> [Action] {
        guard var state = exchanges[exchange], !state.isClosed else { return [] }
        state.isClosed = true
        var actions: [Action] = []
        if let pending = state.pendingAcknowledgement {
            state.pendingAcknowledgement = nil
            actions.append(standaloneAcknowledgement(of: pending.messageCounter, on: exchange))
        }
        exchanges[exchange] = state.isFinished ? nil : state
        return actions
    }

    // MARK: Encoding

    /// Stamps the next counter of the session's domain on a message and encodes or seals it.
    mutating func encode(
        _ protocolHeader: ProtocolHeader, payload: [UInt8], on handle: SessionHandle
    ) throws(ExchangeError) -> (datagram: [UInt8], messageCounter: UInt32, peer: PeerAddress) {
        guard var session = sessions[handle] else { throw .unknownSession(handle) }
        do {
            let counter: UInt32
            if var sessionCounter = session.sessionCounter {
                counter = try sessionCounter.next()
                session.sessionCounter = sessionCounter
                sessions[handle] = session
            } else {
                counter = try globalUnencryptedCounter.next()
            }
            let message = Message(
                header: session.header(messageCounter: counter), protocolHeader: protocolHeader, payload: payload)
            let datagram =
                switch session.kind {
                case .unsecuredInitiator, .unsecuredResponder:
                    try message.encode()
                case let .secure(parameters):
                    try message.encrypted(key: parameters.encryptionKey, nonceSourceNodeID: parameters.localNonceNodeID)
                }
            return (datagram, counter, session.peerAddress)
        } catch {
            throw .message(error)
        }
    }

    /// §4.12.5.2.1 / §4.10.1: MRP Standalone Acknowledgement, unreliable, on the exchange it acknowledges.
    /// When it cannot be sent (the session counter is spent), the exchange fails instead.
    mutating func standaloneAcknowledgement(of messageCounter: UInt32, on exchange: ExchangeHandle) -> Action {
        let protocolHeader = ProtocolHeader(
            isInitiator: exchange.role == .initiator,
            needsAcknowledgement: false,
            acknowledgedMessageCounter: messageCounter,
            opcode: SecureChannelOpcode.standaloneAcknowledgement.rawValue,
            exchangeID: exchange.exchangeID,
            protocolID: .secureChannel)
        do {
            let (datagram, _, peer) = try encode(protocolHeader, payload: [], on: exchange.session)
            return .send(datagram, to: peer)
        } catch {
            exchanges[exchange] = nil
            return .exchangeFailed(exchange, error)
        }
    }

    /// §4.12.2.1 with the interval the peer's current state calls for.
    func retransmissionTimeout(for session: Session<PeerAddress>, priorTransmissions: Int, now: Instant) -> Duration {
        MRPBackoff.timeout(
            baseInterval: session.peerParameters.baseInterval(lastReceived: session.lastReceived, now: now),
            priorTransmissions: priorTransmissions,
            jitter: MRPBackoff.jitter(from: random))
    }
}
