/// Whether a device can be reached and where its data comes from: per trait, and aggregated per device type and device.
public struct SourceConnectivity: Sendable, Hashable {
    public enum ConnectivityState: Sendable, Hashable, CaseIterable {
        case online
        case offline
        /// Some parts of the device are online, others are not.
        case partiallyOnline
        /// Reachable but sleeping by design (a battery device that checks in when it wakes): its values are as of its
        /// last report, and a command reaches it only once it is awake again.
        case asleep
        case unknown
    }

    public enum DataSourceLocality: Sendable, Hashable, CaseIterable {
        /// From the device itself, over the hub's own session.
        case direct
        /// Through another controller on the local network.
        case localPeer
        /// Through a remote service.
        case remote
        /// Parts of the device disagree.
        case mixed
        case unspecified
    }

    public var connectivityState: ConnectivityState
    public var dataSourceLocality: DataSourceLocality

    public init(connectivityState: ConnectivityState, dataSourceLocality: DataSourceLocality) {
        self.connectivityState = connectivityState
        self.dataSourceLocality = dataSourceLocality
    }

    /// What the hub reports of a device it does not follow live yet.
    public static let unknown = SourceConnectivity(connectivityState: .unknown, dataSourceLocality: .unspecified)

    /// The connectivity of a device made of parts (endpoints, device types).
    /// State: no parts is `unknown`; parts that all agree give their state; otherwise any part online (or partially)
    /// makes the device `partiallyOnline`, and with none online it is `unknown` (offline and unknown parts do not make
    /// a device known to be offline).
    /// Locality: parts with `unspecified` locality do not count; the rest, when they agree, give theirs, when they
    /// differ give `mixed`; with none left it is `unspecified`.
    public static func aggregate(_ parts: some Sequence<SourceConnectivity>) -> SourceConnectivity {
        let states = Set(parts.map(\.connectivityState))
        let state: ConnectivityState =
            if states.count == 1, let only = states.first {
                only
            } else if states.contains(.online) || states.contains(.partiallyOnline) || states.contains(.asleep) {
                .partiallyOnline
            } else {
                .unknown
            }
        let localities = Set(parts.map(\.dataSourceLocality)).subtracting([.unspecified])
        let locality: DataSourceLocality =
            if localities.isEmpty {
                .unspecified
            } else if localities.count == 1, let only = localities.first {
                only
            } else {
                .mixed
            }
        return SourceConnectivity(connectivityState: state, dataSourceLocality: locality)
    }
}
