import MatterMessaging

/// What one cluster server of an endpoint (or the node's fail-safe, to endpoint 0) tells the others on the same
/// endpoint, so that coupled clusters agree (Matter Application Clusters §1.6.4.1.1: Level Control's "with On/Off"
/// commands switch the On/Off cluster, and Level Control's commands depend on whether the endpoint is on).
public enum EndpointSignal: Hashable, Sendable {
    /// The endpoint identifies itself until then (nil: it stopped); Groups' AddGroupIfIdentifying follows it.
    case identifying(until: Instant?)
    /// The endpoint is now on (true) or off; an On/Off server takes it as its state.
    case onOff(Bool)
    /// Matter Core §11.10.7.2.2 and §11.10.7.6: the fail-safe ended, its changes kept (CommissioningComplete) or
    /// undone (it expired or was disarmed); a root cluster that changed something under it keeps or reverts it.
    case failSafeEnded(committed: Bool)
    /// The endpoint's network interface joined the network with this ID (an SSID, a Thread Extended PAN ID; nil: it
    /// is on none), given with these credentials (a Thread network's are its operational dataset); the interface's
    /// diagnostics cluster describes it.
    case network(joined: [UInt8]?, credentials: [UInt8]?)
}
