import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import Synchronization

/// Nodes imported from a diagnostics dump (`import_test_node`): served by the Matter-server API as python-matter-server
/// serves them, to try a client against devices nobody has here, and to compare servers on the same node. They live
/// in the API only, for as long as it runs: they are no devices of the home, the Home API never sees them, and
/// nothing is stored. A command that would reach the device does nothing.
final class MatterServerTestNodes: Sendable {
    /// python-matter-server's TEST_NODE_START: the IDs of imported nodes count up from here (skipping any node of
    /// the home that has one).
    static let firstNodeID: UInt64 = 900_000
    /// Test nodes held at once: a whole home's dump (python-matter-server's users report a few hundred nodes) with
    /// room to spare; a client importing without end cannot grow the hub's memory (each import is at most one
    /// WebSocket message, `HTTPWebSocketLimits`). Past it an import is refused whole.
    static let limit = 1024

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// The MatterNodeData fields an imported node must have (python-matter-server reads a dump strictly).
    private static let fields: [(name: String, isValid: @Sendable (UntypedJSON) -> Bool)] = [
        ("date_commissioned", { $0.string != nil }), ("last_interview", { $0.string != nil }),
        ("interview_version", { $0.unsigned != nil }), ("available", { $0.bool != nil }),
        ("is_bridge", { $0.bool != nil }),
        ("attributes", { if case .object = $0 { true } else { false } }),
        ("attribute_subscriptions", { if case .array = $0 { true } else { false } }),
    ]

    private let nodes = Mutex<[UInt64: TestNode]>([:])

    struct TestNode {
        /// The node as MatterNodeData, its node ID the one given here.
        let json: JSONValue
        /// Its attributes by "endpoint/cluster/attribute", for read_attribute.
        let attributes: [String: JSONValue]
    }

    subscript(nodeID: UInt64) -> TestNode? { nodes.withLock { $0[nodeID] } }

    /// Every imported node, in node ID order.
    var all: [JSONValue] { nodes.withLock { $0.sorted { $0.key < $1.key }.map(\.value.json) } }

    /// Imports the nodes of `dump`, a Home Assistant diagnostics file of one node (`data.node`) or of the whole
    /// server (`data.server.nodes`), each given the next free test node ID; all of them or, on any fault, none.
    func importNodes(from dump: String, besides home: Set<UInt64>) throws(Invalid) -> [JSONValue] {
        guard let parsed = try? JSONDecoder().decode(UntypedJSON.self, from: Data(dump.utf8)),
            case .object(let file) = parsed, case .object(let data)? = file["data"]
        else {
            throw Invalid(description: "the dump is not a diagnostics file: JSON with a data object expected")
        }
        let given: [UntypedJSON]
        if let node = data["node"] {
            given = [node]
        } else if case .object(let server)? = data["server"], case .array(let nodes)? = server["nodes"] {
            given = nodes
        } else {
            throw Invalid(description: "the dump has neither data.node nor data.server.nodes")
        }
        var imported: [(UInt64, TestNode)] = []
        try nodes.withLock { (nodes: inout [UInt64: TestNode]) throws(Invalid) in
            var next = max(Self.firstNodeID, (nodes.keys.max() ?? 0) &+ 1)
            for (index, node) in given.enumerated() {
                guard case .object(var fields) = node else { throw Invalid(description: "node \(index) is no object") }
                for field in Self.fields where !(fields[field.name].map(field.isValid) ?? false) {
                    throw Invalid(description: "node \(index) has no valid \(field.name)")
                }
                while home.contains(next) || nodes[next] != nil { next += 1 }
                fields["node_id"] = .unsigned(next)
                guard case .object(let attributes)? = fields["attributes"] else { continue }
                let order = ["node_id"] + Self.fields.map(\.name)
                let json = JSONValue.object(order.compactMap { key in fields[key].map { (key, $0.json) } })
                imported.append(
                    (next, TestNode(json: json, attributes: attributes.mapValues(\.json))))
                next += 1
            }
            guard nodes.count + imported.count <= Self.limit else {
                throw Invalid(
                    description:
                        "\(imported.count) more test nodes would pass the \(Self.limit) this server holds (it has "
                        + "\(nodes.count)): remove some first")
            }
            for (nodeID, node) in imported { nodes[nodeID] = node }
        }
        return imported.map(\.1.json)
    }

    /// Forgets an imported node; false when there was none.
    func remove(_ nodeID: UInt64) -> Bool {
        nodes.withLock { $0.removeValue(forKey: nodeID) != nil }
    }
}

extension UntypedJSON {
    /// The value as the API writes JSON (an object's keys sorted, so what is sent does not depend on parsing).
    var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .unsigned(let value): .unsigned(value)
        case .signed(let value): .signed(value)
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        case .array(let items): .array(items.map(\.json))
        case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
        }
    }
}
