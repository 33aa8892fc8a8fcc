import HomeRecords
import MatterMessaging

/// A secure session to a node as a `NodeConnection` uses it: the hub establishes it by CASE, a test by fixed keys.
public struct NodeSession: Sendable {
    public let session: SessionHandle
    /// The node's MRP intervals: they set how long its retransmissions of one report may take.
    public let peerParameters: MRPParameters

    public init(session: SessionHandle, peerParameters: MRPParameters) {
        self.session = session
        self.peerParameters = peerParameters
    }
}
