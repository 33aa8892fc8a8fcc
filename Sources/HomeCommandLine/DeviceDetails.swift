import Foundation
import HomeHub
import HomeRecords
import MatterDataModel
import MatterInteraction

/// What `home show` prints of one device: what the store knows of it, how its node answered, and every attribute
/// value of every endpoint of its node (node-wide clusters such as Basic Information live on endpoint 0).
struct DeviceDetails {
    let device: DeviceRecord
    /// The device types of every endpoint of the node, as the store has them.
    let nodeEndpoints: [EndpointDeviceType]
    /// The semantic tags of every endpoint of the node, as the store has them: what tells its parts apart.
    var nodeTags: [EndpointSemanticTag] = []
    /// The node's other devices by endpoint, to say whose endpoint is whose.
    let otherDevices: [UInt16: String]
    let state: NodeConnection.State
    let cache: AttributeCache
    private var registry: ClusterRegistry { .standard }

    var text: String {
        let node = device.node
        var lines = [LiveCommands.label(device)]
        lines += [
            ("Room", device.roomName ?? "-"),
            ("Vendor", "\(node.vendorName ?? "?") (0x\(paddedHex(node.vendorID)))"),
            ("Product", "\(node.productName ?? "?") (0x\(paddedHex(node.productID)))"),
            (
                "Device types",
                device.deviceTypes.map {
                    "\(DeviceTypeNames.name($0.deviceType)) (\(DeviceTypeID(rawValue: $0.deviceType)), revision \($0.revision))"
                }
                .joined(separator: ", ")
            ),
            ("Tags", device.semanticTags.isEmpty ? "-" : SemanticTagText.list(device.semanticTags)),
            ("Attestation", (node.attestation.trusted ? "trusted" : "untrusted") + " (\(node.attestation.verdict))"),
            ("Connectivity", LiveConnectivity.describe(state)),
            ("Locality", LiveConnectivity.locality(state)),
        ].map { label, value in "  " + (label + ":").padding(toLength: 15, withPad: " ", startingAt: 0) + value }
        lines.append("")
        if cache.paths.isEmpty {
            lines.append("No attribute values: the node did not answer.")
        }
        for endpoint in endpoints {
            let tags = nodeTags.filter { $0.endpoint == endpoint }
            lines.append(
                "Endpoint \(endpoint)\(owner(of: endpoint).map { " (\($0))" } ?? ""): "
                    + DeviceTypeNames.list(types(of: endpoint))
                    + (tags.isEmpty ? "" : " [\(SemanticTagText.list(tags))]"))
            for (cluster, paths) in clusters(of: endpoint) {
                lines.append("  " + clusterName(cluster))
                // What `home invoke DEVICE Cluster.Command` takes here.
                let commands = commandNames(of: cluster, on: endpoint)
                if !commands.isEmpty { lines.append("    Commands: " + commands.joined(separator: ", ")) }
                for path in paths {
                    let value =
                        cache.value(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute).map(
                            AttributeValueText.render) ?? "-"
                    lines.append("    \(attributeName(path)): \(value)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: JSONValue {
        .object(
            DeviceList.jsonMembers(device, connectivity: state) + [
                (
                    "endpoints",
                    .array(
                        endpoints.map { endpoint in
                            .object([
                                ("endpoint", .unsigned(UInt64(endpoint))),
                                (
                                    "device",
                                    owner(of: endpoint).map { _ in
                                        .string(DeviceID(nodeID: device.id.nodeID, endpoint: endpoint).description)
                                    } ?? .null
                                ),
                                ("deviceTypes", DeviceTypeNames.json(types(of: endpoint))),
                                ("tags", SemanticTagText.json(nodeTags.filter { $0.endpoint == endpoint })),
                                (
                                    "clusters",
                                    .array(
                                        clusters(of: endpoint).map { cluster, paths in
                                            .object([
                                                ("id", .unsigned(UInt64(cluster.rawValue))),
                                                ("name", registry[cluster].map { .string($0.name) } ?? .null),
                                                (
                                                    "attributes",
                                                    .array(
                                                        paths.map { attributeJSON($0, of: cluster) })
                                                ),
                                                (
                                                    "commands",
                                                    .array(
                                                        commandNames(of: cluster, on: endpoint).map(JSONValue.string))
                                                ),
                                            ])
                                        })
                                ),
                            ])
                        })
                )
            ])
    }

    private func attributeJSON(_ path: ConcreteAttributePath, of cluster: ClusterID) -> JSONValue {
        let name = registry[cluster]?.attributes[AttributeID(rawValue: path.attribute)]
        let value = cache.value(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)
        return .object([
            ("id", .unsigned(UInt64(path.attribute))),
            ("name", name.map(JSONValue.string) ?? .null),
            ("value", value.map { JSONValue($0) } ?? .null),
        ])
    }

    /// Every endpoint the store or the cache knows, in order.
    private var endpoints: [UInt16] {
        Set(nodeEndpoints.map(\.endpoint) + cache.paths.map(\.endpoint)).sorted()
    }

    private func types(of endpoint: UInt16) -> [EndpointDeviceType] {
        nodeEndpoints.filter { $0.endpoint == endpoint }
    }

    /// "this device", another device's name, or nil for an endpoint that is no device (the root endpoint).
    private func owner(of endpoint: UInt16) -> String? {
        endpoint == device.id.endpoint ? "this device" : otherDevices[endpoint]
    }

    /// The cached attributes of one endpoint by cluster, both in ID order.
    private func clusters(of endpoint: UInt16) -> [(ClusterID, [ConcreteAttributePath])] {
        let paths = cache.paths.filter { $0.endpoint == endpoint }
        return Dictionary(grouping: paths) { ClusterID(rawValue: $0.cluster) }.sorted { $0.key < $1.key }.map {
            ($0.key, $0.value)
        }
    }

    /// The commands the cluster accepts on the endpoint (its cached AcceptedCommandList), by the data model's names
    /// (or IDs for what it lacks), in ID order.
    private func commandNames(of cluster: ClusterID, on endpoint: UInt16) -> [String] {
        let accepted = AttributeDefinition<[CommandID]>(cluster: cluster, id: 0xFFF9, name: "AcceptedCommandList")
        guard let commands = try? cache.value(accepted, endpoint: endpoint) else { return [] }
        return commands.sorted().map { registry[cluster]?.acceptedCommands[$0] ?? $0.description }
    }

    /// "OnOff (0x0006)", or the bare ID of a cluster the registry lacks.
    private func clusterName(_ cluster: ClusterID) -> String {
        registry[cluster].map { "\($0.name) (\(cluster))" } ?? cluster.description
    }

    private func attributeName(_ path: ConcreteAttributePath) -> String {
        let attribute = AttributeID(rawValue: path.attribute)
        return registry[ClusterID(rawValue: path.cluster)]?.attributes[attribute] ?? attribute.description
    }
}
