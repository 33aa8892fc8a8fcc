import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterTLV

/// A command named as people and the Matter-server API write it, checked against the data model and encoded: one
/// rule for every front door that sends any command of any cluster (the Matter-server API's `device_command`,
/// `home invoke`). Nothing is sent until it is whole.
package struct NamedCommand: Sendable {
    package let cluster: ClusterInfo
    package let command: CommandID
    /// `Cluster.Command`, as messages name it.
    package var name: String { "\(cluster.name).\(cluster.acceptedCommands[command] ?? "\(command)")" }

    /// The command `name` of `cluster`, whatever its case (`MoveToLevel`, `moveToLevel`, `movetolevel`).
    package init(_ name: String, of cluster: ClusterInfo) throws(MatterServerPayload.Invalid) {
        guard
            let command = cluster.acceptedCommands.first(where: {
                $0.value.caseInsensitiveCompare(name) == .orderedSame
            })
        else {
            throw MatterServerPayload.Invalid(
                description: "\(cluster.name) has no command \(name)"
                    + NearMiss.suggestion(for: name, among: cluster.acceptedCommands.values) + " (its commands: "
                    + cluster.acceptedCommands.values.sorted().joined(separator: ", ") + ")")
        }
        self.cluster = cluster
        self.command = command.key
    }

    /// The command to `endpoint` of `nodeID` with `payload` as its fields (name-keyed, as `MatterServerPayload`
    /// reads them), timed with `timedWindowMilliseconds`, or, when none is given and the specification makes the
    /// command timed, with `specTimedWindowMilliseconds`.
    package func invocation(
        nodeID: UInt64, endpoint: UInt16, payload: [String: UntypedJSON],
        timedWindowMilliseconds: Int64? = nil, knownValuesOnly: Bool = false
    ) throws(MatterServerPayload.Invalid) -> InvokeCommand {
        let fields: TLVElement
        do {
            fields = try MatterServerPayload.encode(
                payload, fields: cluster.commandFields[command] ?? [], knownValuesOnly: knownValuesOnly)
        } catch {
            throw MatterServerPayload.Invalid(description: "\(name): \(error)")
        }
        return InvokeCommand(
            nodeID: nodeID, endpoint: endpoint, cluster: cluster.id.rawValue, command: command.rawValue,
            name: cluster.acceptedCommands[command] ?? name, fields: fields,
            timedWindowMilliseconds: timedWindowMilliseconds
                ?? (cluster.timedCommands.contains(command) ? Self.specTimedWindowMilliseconds : nil))
    }

    /// A response's fields by name (`MatterServerPayload.decode`); nil for a status-only answer.
    package func response(command responseID: UInt32?, fields: TLVElement?) -> JSONValue? {
        guard let responseID, let fields else { return nil }
        return MatterServerPayload.decode(fields, fields: cluster.responseFields[CommandID(rawValue: responseID)] ?? [])
    }

    /// The timed window of a command or write the specification requires to be timed when the client gave none: a
    /// second, as Home Assistant gives its door locks, ample for one exchange on a local network.
    package static let specTimedWindowMilliseconds: Int64 = 1000
}

/// A write of one attribute a client may write, its value checked against the data model and encoded (tag-keyed as
/// attribute values are reported, field names taken too), timed when the specification says the attribute's writes
/// are: one rule for the Matter-server API's `write_attribute` and `home write`.
package struct NamedAttributeWrite: Sendable {
    package let cluster: ClusterID
    package let attribute: AttributeID
    package let schema: WritableAttribute
    /// `Cluster.Attribute`, as messages name it.
    package let name: String

    /// The attribute of `cluster`, when clients may write it.
    package init(cluster: ClusterID, attribute: AttributeID) throws(MatterServerPayload.Invalid) {
        let registry = ClusterRegistry.standard
        name = registry.describe(cluster: cluster, attribute: attribute)
        guard let schema = registry[cluster]?.writableAttributes[attribute] else {
            throw MatterServerPayload.Invalid(description: "\(name) is not an attribute a client may write")
        }
        self.cluster = cluster
        self.attribute = attribute
        self.schema = schema
    }

    /// The write of `value` to `endpoint` of `nodeID`.
    package func write(
        nodeID: UInt64, endpoint: UInt16, value: UntypedJSON, knownValuesOnly: Bool = false
    ) throws(MatterServerPayload.Invalid) -> WriteAttribute {
        let element: TLVElement
        do {
            element = try MatterServerPayload.encode(value, as: schema, knownValuesOnly: knownValuesOnly)
        } catch {
            throw MatterServerPayload.Invalid(description: "\(name): \(error)")
        }
        return WriteAttribute(
            nodeID: nodeID, endpoint: endpoint, cluster: cluster.rawValue, attribute: attribute.rawValue, name: name,
            value: element,
            timedWindowMilliseconds: schema.requiresTimedWrite ? NamedCommand.specTimedWindowMilliseconds : nil)
    }
}
