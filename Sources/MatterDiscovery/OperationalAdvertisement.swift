// Matter Core §4.3.2 Operational Discovery: what a commissioned node publishes as `_matter._tcp`, once per fabric.
public struct OperationalAdvertisement: Hashable, Sendable {
    /// The instance `<compressed fabric ID>-<node ID>` and the `_I<compressed fabric ID>` subtype.
    public var peerID: OperationalPeerID
    public var port: UInt16
    /// SII, SAI, SAT, T, ICD.
    public var session: AdvertisedSessionParameters

    public init(
        peerID: OperationalPeerID, port: UInt16, session: AdvertisedSessionParameters = AdvertisedSessionParameters()
    ) {
        self.peerID = peerID
        self.port = port
        self.session = session
    }

    /// `<CFID>-<NodeID>._matter._tcp.local`.
    public var serviceInstanceName: DNSName { peerID.serviceInstanceName }
}
