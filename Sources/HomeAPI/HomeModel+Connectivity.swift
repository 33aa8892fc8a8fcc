import HomeHub
import HomeRecords

extension HomeModel.NodeView {
    /// Our hub's own session to the node: direct. Online while the subscription lives, offline once it is lost; a
    /// sleeping device that promised to check in is asleep, not offline, until its promise has passed.
    var connectivity: SourceConnectivity {
        switch state {
        case .online: SourceConnectivity(connectivityState: .online, dataSourceLocality: .direct)
        case .offline: SourceConnectivity(connectivityState: .offline, dataSourceLocality: .direct)
        case .asleep: SourceConnectivity(connectivityState: .asleep, dataSourceLocality: .direct)
        case .connecting: SourceConnectivity(connectivityState: .unknown, dataSourceLocality: .direct)
        }
    }
}
