// Matter Core §4.13.1 Secure Session Context (the parts the message layer uses)
/// What PASE or CASE hands the exchange layer once a secure session is established.
public struct SecureSessionParameters: Sendable, Hashable {
    /// The session ID the peer puts in the messages it sends us.
    public var localSessionID: UInt16
    /// The session ID we put in the messages we send the peer.
    public var peerSessionID: UInt16
    /// Seals what we send (I2R key for the session's initiator, R2I for the responder).
    public var encryptionKey: [UInt8]
    /// Opens what we receive.
    public var decryptionKey: [UInt8]
    /// Our node ID as our nonces carry it: the operational node ID for CASE, `undefinedNodeID` for PASE.
    public var localNonceNodeID: UInt64
    /// The peer's node ID as its nonces carry it.
    public var peerNonceNodeID: UInt64

    public init(
        localSessionID: UInt16,
        peerSessionID: UInt16,
        encryptionKey: [UInt8],
        decryptionKey: [UInt8],
        localNonceNodeID: UInt64,
        peerNonceNodeID: UInt64
    ) {
        self.localSessionID = localSessionID
        self.peerSessionID = peerSessionID
        self.encryptionKey = encryptionKey
        self.decryptionKey = decryptionKey
        self.localNonceNodeID = localNonceNodeID
        self.peerNonceNodeID = peerNonceNodeID
    }
}
