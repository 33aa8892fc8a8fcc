import Foundation
import HTTPWebSocket
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterPlatform
import MatterTLV

// The Matter-server API's commands that reach a device's clusters: invoking commands, reading and writing
// attributes (ACLs and bindings among them).
extension MatterServerClient {
    func writeAttribute(_ id: String, _ args: WriteAttributeArguments) {
        guard let path = Self.concretePath(args.attributePath) else {
            return send(
                Self.error(
                    id, .invalidArguments,
                    "attribute_path is endpoint/cluster/attribute, three numbers (a write has no wildcard)"))
        }
        write(id, nodeID: args.nodeID, path: path, value: args.value)
    }

    func setAclEntry(_ id: String, _ args: SetACLEntryArguments) {
        // The node's whole ACL for this fabric (Matter Core §9.10.5.3): the entries given replace the ones there.
        write(id, nodeID: args.nodeID, path: (0, AccessControlCluster.id.rawValue, 0), value: .array(args.entry))
    }

    func setNodeBinding(_ id: String, _ args: SetNodeBindingArguments) {
        write(
            id, nodeID: args.nodeID, path: (args.endpoint, BindingCluster.id.rawValue, 0),
            value: .array(args.bindings))
    }

    /// A command to a node's endpoint, named as the CHIP Python codegen names it (`MoveToLevelWithOnOff`, or camel-case),
    /// its payload name-keyed; timed when asked (`timed_request_timeout_ms`). The answer is null, or the response's
    /// fields by name. Refused before anything is sent: an unknown node (5), one not available (3), a cluster,
    /// command or field the data model does not have, or a value of the wrong type (8).
    func deviceCommand(_ id: String, _ args: DeviceCommandArguments) {
        let nodeID = args.nodeID
        let name = args.commandName
        let snapshot = engine.model.snapshot
        guard snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        guard MatterServerNodes.isAvailable(nodeID, snapshot) else {
            return send(Self.error(id, .notReady(nodeID)))
        }
        guard let cluster = ClusterRegistry.standard[ClusterID(rawValue: args.clusterID)] else {
            return send(Self.error(id, .invalidArguments, "cluster \(args.clusterID) is not in the data model"))
        }
        let payload = args.payload ?? [:]
        guard args.timedRequestTimeoutMilliseconds != 0 else {
            return send(Self.missing(id, "timed_request_timeout_ms"))
        }
        let timed = args.timedRequestTimeoutMilliseconds.map(Int64.init)
        let command: NamedCommand, invocation: InvokeCommand
        do throws(MatterServerPayload.Invalid) {
            command = try NamedCommand(name, of: cluster)
            invocation = try command.invocation(
                nodeID: nodeID, endpoint: args.endpointID, payload: payload, timedWindowMilliseconds: timed)
        } catch {
            return send(Self.error(id, .invalidArguments, error.description))
        }
        work { [self] in
            do throws(HomeError) {
                let response = try await engine.perform(invocation, caller: caller)
                send(
                    Self.reply(
                        id, command.response(command: response.command, fields: response.fields)?.rendered ?? "null"))
            } catch {
                // Unreachable meanwhile: NodeNotReady; anything else the device or the hub answered: Unknown, said.
                send(Self.error(id, MatterServerError(error)))
            }
        }
    }

    /// One attribute written, its value tag-keyed as attributes are reported (field names taken too), timed when the
    /// specification says the attribute's writes are. The answer is python-matter-server's: the device's status for
    /// the path, a refusal such as CONSTRAINT_ERROR included; refused before anything is sent: an unknown node (5),
    /// one not available (3), an attribute the data model does not let clients write, or a value of the wrong type (8).
    func write(
        _ id: String, nodeID: UInt64, path: (endpoint: UInt16, cluster: UInt32, attribute: UInt32),
        value: UntypedJSON
    ) {
        let snapshot = engine.model.snapshot
        guard snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        guard MatterServerNodes.isAvailable(nodeID, snapshot) else {
            return send(Self.error(id, .notReady(nodeID)))
        }
        let request: WriteAttribute
        do throws(MatterServerPayload.Invalid) {
            request = try NamedAttributeWrite(
                cluster: ClusterID(rawValue: path.cluster), attribute: AttributeID(rawValue: path.attribute)
            ).write(nodeID: nodeID, endpoint: path.endpoint, value: value)
        } catch {
            return send(Self.error(id, .invalidArguments, error.description))
        }
        work { [self] in
            do throws(HomeError) {
                let status = try await engine.perform(request, caller: caller)
                let result: JSONValue = .array([
                    .object([
                        (
                            "Path",
                            .object([
                                ("EndpointId", .unsigned(UInt64(path.endpoint))),
                                ("ClusterId", .unsigned(UInt64(path.cluster))),
                                ("AttributeId", .unsigned(UInt64(path.attribute))),
                            ])
                        ),
                        ("Status", .unsigned(UInt64(status))),
                    ])
                ])
                send(Self.reply(id, result.rendered))
            } catch {
                send(Self.error(id, MatterServerError(error)))
            }
        }
    }

    /// `"1/8/17"` as numbers; nil for anything else (wildcards included).
    static func concretePath(_ text: String) -> (endpoint: UInt16, cluster: UInt32, attribute: UInt32)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let endpoint = UInt16(parts[0]), let cluster = UInt32(parts[1]),
            let attribute = UInt32(parts[2])
        else { return nil }
        return (endpoint, cluster, attribute)
    }

    /// Attribute values by path (`"1/6/0"`, `"1/*/*"`, or a list of them) from the node's live cache: what its
    /// subscription last reported, which is every attribute of the node, fabric-filtered as the subscription is.
    func readAttributes(_ id: String, _ args: ReadAttributeArguments) {
        let nodeID = args.nodeID
        let patterns = args.attributePaths.map {
            $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        }
        guard
            patterns.allSatisfy({ parts in
                parts.count == 3 && parts.allSatisfy { $0 == "*" || UInt32($0) != nil }
            })
        else {
            return send(
                Self.error(id, .invalidArguments, "an attribute path is endpoint/cluster/attribute, each a number or *")
            )
        }
        let matches = { (numbers: [UInt32]) in
            patterns.contains { parts in zip(parts, numbers).allSatisfy { $0 == "*" || UInt32($0) == $1 } }
        }
        if let test = peers.testNodes[nodeID] {
            let values = test.attributes.filter { key, _ in
                matches(key.split(separator: "/").compactMap { UInt32($0) })
            }.sorted { $0.key < $1.key }
            return send(Self.reply(id, JSONValue.object(values.map { ($0.key, $0.value) }).rendered))
        }
        let snapshot = engine.model.snapshot
        guard snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        let cache = snapshot.views[nodeID]?.cache ?? AttributeCache()
        let values = cache.paths.filter { path in
            matches([UInt32(path.endpoint), path.cluster, path.attribute])
        }.compactMap { path -> (String, JSONValue)? in
            cache.value(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute).map {
                (MatterServerNodes.key(path), JSONValue($0, octetStrings: .base64))
            }
        }
        send(Self.reply(id, JSONValue.object(values).rendered))
    }
}
