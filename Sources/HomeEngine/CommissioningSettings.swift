import HubWire
import MatterPlatform

/// What adding devices needs to know besides the store: where to look for devices, what to trust, and who is asking.
public struct CommissioningSettings: Sendable {
    /// Interfaces mDNS may use; empty: none.
    public var interfaces: [String]
    /// The directory of trusted PAA certificates.
    public var paaTrustStore: String
    /// Skips discovery (tests over loopback).
    public var address: SocketAddress?
    /// The local user calling: the state directory's owner holds every permission, others need a grant.
    public var callerUID: UInt32

    public init(interfaces: [String], paaTrustStore: String, address: SocketAddress?, callerUID: UInt32) {
        self.interfaces = interfaces
        self.paaTrustStore = paaTrustStore
        self.address = address
        self.callerUID = callerUID
    }
}
