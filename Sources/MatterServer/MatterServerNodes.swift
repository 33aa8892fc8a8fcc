import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction

/// The home's nodes as the Matter-server API shows them (MatterNodeData, `../shared/protocols/matter-server-ws.md`
/// §3), built from the home model: the attributes are the node's live cache, keyed "endpoint/cluster/attribute" in
/// decimal, each value its TLV as JSON (structs keyed by field tag, octet strings in base64, 64-bit integers exact).
enum MatterServerNodes {
    /// python-matter-server's DATA_MODEL_SCHEMA_VERSION: a lower stored value makes it re-interview, so a client
    /// takes this as current.
    static let interviewVersion: UInt64 = 6
    /// Device type 14, Aggregator: a node with it on endpoint 1 is a bridge (as python-matter-server decides).
    static let aggregator = MatterDeviceTypes.aggregator.id

    /// Every node of the home (only those available, with `onlyAvailable`), in node ID order.
    static func all(_ snapshot: HomeModel.Snapshot, onlyAvailable: Bool = false) -> [JSONValue] {
        snapshot.devices.keys.sorted().filter { !onlyAvailable || isAvailable($0, snapshot) }.compactMap {
            node($0, snapshot)
        }
    }

    /// The node as MatterNodeData; nil when it is not (or no longer) a node of the home.
    static func node(_ nodeID: UInt64, _ snapshot: HomeModel.Snapshot) -> JSONValue? {
        guard let record = snapshot.devices[nodeID]?.first?.node else { return nil }
        let cache = snapshot.views[nodeID]?.cache ?? AttributeCache()
        let attributes = cache.paths.compactMap { path -> (String, JSONValue)? in
            guard let value = cache.value(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)
            else { return nil }
            return (key(path), JSONValue(value, octetStrings: .base64))
        }
        return .object([
            ("node_id", .unsigned(nodeID)),
            ("date_commissioned", .string(isoDate(record.createdAt))),
            ("last_interview", .string(isoDate(record.updatedAt))),
            ("interview_version", .unsigned(interviewVersion)),
            ("available", .bool(isAvailable(nodeID, snapshot))),
            ("is_bridge", .bool(isBridge(cache))),
            ("attributes", .object(attributes)),
            ("attribute_subscriptions", .array([])),
        ])
    }

    /// Whether the hub's own session to the node is up, or the node sleeps by design and has not let a promised
    /// check-in pass (matterjs-server's ICD nodes stay available too): `available` on the wire.
    static func isAvailable(_ nodeID: UInt64, _ snapshot: HomeModel.Snapshot) -> Bool {
        snapshot.views[nodeID]?.state.isReachable ?? false
    }

    /// Whether the node is a bridge: an Aggregator on endpoint 1, as python-matter-server decides.
    static func isBridge(_ cache: AttributeCache) -> Bool {
        let descriptor = DescriptorCluster.Attributes.deviceTypeList
        return (try? cache.value(descriptor, endpoint: 1))??.contains { $0.deviceType == aggregator } ?? false
    }

    /// The endpoints the node's live cache has attributes of.
    static func endpoints(_ nodeID: UInt64, _ snapshot: HomeModel.Snapshot) -> Set<UInt16> {
        Set(snapshot.views[nodeID]?.cache.paths.map(\.endpoint) ?? [])
    }

    /// "1/6/0".
    static func key(_ path: ConcreteAttributePath) -> String {
        "\(path.endpoint)/\(path.cluster)/\(path.attribute)"
    }

    /// Naive UTC, to the second, as python-matter-server writes it (`datetime.fromisoformat` reads it back).
    static func isoDate(_ date: Date) -> String {
        // gmtime_r rather than a DateFormatter, which costs more to make than a node does to render.
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var utc = tm()
        gmtime_r(&seconds, &utc)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
            utc.tm_min, utc.tm_sec)
    }
}
