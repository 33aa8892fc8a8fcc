import MatterCrypto

/// One session the exchange layer sends over, with its send and reception state.
public struct Session<PeerAddress: Hashable & Sendable>: Sendable {
    public let kind: SessionKind
    public let peerAddress: PeerAddress
    public let peerParameters: MRPParameters
    /// When the peer last sent a new, authentic message; decides whether it is active (§4.12.2.1).
    public internal(set) var lastReceived: Instant?
    /// §4.5.1.3: a secure session's own counter; nil for unsecured sessions, which share the manager's
    /// global unencrypted counter (§4.5.1.1).
    var sessionCounter: MessageCounter?
    /// §4.5.4: duplicate detection for what the peer sends on this session.
    var receptionWindow: MessageCounterWindow

    init(kind: SessionKind, peerAddress: PeerAddress, peerParameters: MRPParameters, random: some RandomSource) {
        self.kind = kind
        self.peerAddress = peerAddress
        self.peerParameters = peerParameters
        switch kind {
        case .unsecuredInitiator, .unsecuredResponder:
            sessionCounter = nil
            receptionWindow = MessageCounterWindow(
                policy: .unsecured, synchronizedTo: MessagingConstants.initialPeerMessageCounter)
        case .secure:
            sessionCounter = MessageCounter(kind: .secureSession, random: random)
            receptionWindow = MessageCounterWindow(
                policy: .secureUnicast, synchronizedTo: MessagingConstants.initialPeerMessageCounter)
        }
    }

    /// §4.13.2.1 / §4.4.1: the session ID and node ID fields of a message we send on this session.
    func header(messageCounter: UInt32) -> MessageHeader {
        switch kind {
        case let .unsecuredInitiator(localEphemeralNodeID):
            MessageHeader(
                sessionID: MessagingConstants.unsecuredSessionID, messageCounter: messageCounter,
                sourceNodeID: localEphemeralNodeID)
        case let .unsecuredResponder(peerEphemeralNodeID):
            MessageHeader(
                sessionID: MessagingConstants.unsecuredSessionID, messageCounter: messageCounter,
                destination: .node(peerEphemeralNodeID))
        case let .secure(parameters):
            MessageHeader(sessionID: parameters.peerSessionID, messageCounter: messageCounter)
        }
    }
}
