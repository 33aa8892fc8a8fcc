// Matter Core §4.13.2 Unsecured Session Context, §4.13.1 Secure Session Context
/// How messages of a session are addressed and protected.
public enum SessionKind: Sendable, Hashable {
    /// An unsecured session we started: our messages carry this random ephemeral node ID as source, and the
    /// peer's replies carry it as destination. A fresh one per PASE/CASE attempt, because a peer (CircuitMatter)
    /// keeps the counters of every node ID it has seen for as long as it runs.
    case unsecuredInitiator(localEphemeralNodeID: UInt64)
    /// An unsecured session the peer started: our messages carry its ephemeral node ID as destination.
    case unsecuredResponder(peerEphemeralNodeID: UInt64)
    /// A PASE or CASE session.
    case secure(SecureSessionParameters)
}
