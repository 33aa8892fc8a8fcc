import HomeHub
import HomeRecords

extension HomeModel.NodeView {
    /// Our hub's own session to the node: direct. Online while the subscription lives, offline once it is lost.
    var connectivity: SourceConnectivity {
        switch state {
        case .online: SourceConnectivity(connectivityState: .online, dataSourceLocality: .direct)
        case .offline: SourceConnectivity(connectivityState: .offline, dataSourceLocality: .direct)
        case .connecting: SourceConnectivity(connectivityState: .unknown, dataSourceLocality: .direct)
        }
    }
}
