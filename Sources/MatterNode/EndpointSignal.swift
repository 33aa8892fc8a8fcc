/// What one cluster server of an endpoint tells the others on the same endpoint, so that coupled clusters agree
/// (Matter Application Clusters §1.6.4.1.1: Level Control's "with On/Off" commands switch the On/Off cluster, and
/// Level Control's commands depend on whether the endpoint is on).
public enum EndpointSignal: Hashable, Sendable {
    /// The endpoint is now on (true) or off; an On/Off server takes it as its state.
    case onOff(Bool)
}
