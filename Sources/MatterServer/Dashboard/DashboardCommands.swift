import HomeHub
import HomeRecords
import MatterDataModel
import MatterInteraction

/// The commands a device's endpoint accepts, described from the data model so that the page can make a form of each:
/// every field's name, its kind, whether it may be left out or null, and what it may hold (an integer's range, an
/// enum's values by name, a bitmap's known bits). Sent once a device's page asks; the form's values come back as an
/// `invoke`, checked against the same tables (`NamedCommand`) before anything is sent.
enum DashboardCommands {
    /// The endpoint's clusters that accept commands, by the endpoint's own ServerList and each cluster's
    /// AcceptedCommandList when it reported one (else every command the data model gives the cluster).
    static func describe(_ cache: AttributeCache, endpoint: UInt16) -> JSONValue {
        let servers = (try? cache.value(DescriptorCluster.Attributes.serverList, endpoint: endpoint)) ?? []
        var clusters: [JSONValue] = []
        for id in servers.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let cluster = ClusterRegistry.standard[id], !cluster.acceptedCommands.isEmpty else { continue }
            let accepted = AttributeDefinition<[CommandID]>(cluster: id, id: 0xFFF9, name: "AcceptedCommandList")
            let listed = (try? cache.value(accepted, endpoint: endpoint)).map(Set.init)
            let commands = cluster.acceptedCommands
                .filter { listed?.contains($0.key) ?? true }
                .sorted { $0.key.rawValue < $1.key.rawValue }
                .map { command in
                    JSONValue.object([
                        ("name", .string(command.value)),
                        ("timed", .bool(cluster.timedCommands.contains(command.key))),
                        ("fields", .array((cluster.commandFields[command.key] ?? []).map(field))),
                    ])
                }
            guard !commands.isEmpty else { continue }
            clusters.append(
                .object([
                    ("id", .unsigned(UInt64(id.rawValue))), ("name", .string(cluster.name)),
                    ("commands", .array(commands)),
                ]))
        }
        return .array(clusters)
    }

    static func field(_ field: FieldInfo) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(field.name)), ("kind", .string(kind(field.kind))), ("optional", .bool(field.isOptional)),
            ("nullable", .bool(field.isNullable)),
        ]
        switch field.limit {
        case .unsigned(let bits):
            members += [("min", .unsigned(0)), ("max", bits >= 53 ? .null : .unsigned((1 << UInt64(bits)) - 1))]
        case .signed(let bits):
            members += [
                ("min", bits >= 53 ? .null : .signed(-(1 << Int64(bits - 1)))),
                ("max", bits >= 53 ? .null : .signed((1 << Int64(bits - 1)) - 1)),
            ]
        case .range(let range):
            members += [("min", .unsigned(range.lowerBound)), ("max", .unsigned(range.upperBound))]
        case .enumeration(_, let names):
            members.append(
                (
                    "values",
                    .array(
                        names.sorted { $0.key < $1.key }.map {
                            .object([("value", .unsigned($0.key)), ("name", .string($0.value))])
                        })
                ))
        case .bitmap(let bits, let mask):
            members += [("bitmap", .unsigned(mask)), ("max", bits >= 53 ? .null : .unsigned((1 << UInt64(bits)) - 1))]
        case nil:
            break
        }
        return .object(members)
    }

    /// As the page words a field's kind; a structure or a list is given as JSON.
    static func kind(_ kind: FieldInfo.Kind) -> String {
        switch kind {
        case .bool: "bool"
        case .unsigned: "unsigned"
        case .signed: "signed"
        case .float, .double: "number"
        case .utf8: "text"
        case .bytes: "bytes"
        case .structure: "structure"
        case .list: "list"
        }
    }
}
