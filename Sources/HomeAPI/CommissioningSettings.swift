import MatterPlatform

/// What adding devices needs to know besides the store: where to look for devices, what to trust, and who is asking.
struct CommissioningSettings: Sendable {
    /// Interfaces mDNS may use; empty: none.
    var interfaces: [String]
    /// The directory of trusted PAA certificates.
    var paaTrustStore: String
    /// Skips discovery (tests over loopback).
    var address: SocketAddress?
    /// The local user calling: the state directory's owner holds every permission, others need a grant.
    var callerUID: UInt32
}
