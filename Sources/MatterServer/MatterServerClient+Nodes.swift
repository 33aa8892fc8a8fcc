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

// The Matter-server API's commands about nodes: listing them, their addresses, pinging, interviewing and removing
// one, and what a test node answers.
extension MatterServerClient {
    func getNodes(_ id: String, _ args: GetNodesArguments) {
        let model = engine.model
        let onlyAvailable = args.onlyAvailable ?? false
        let tests = peers.testNodes.all.filter { node in
            !onlyAvailable || node.member("available") == .bool(true)
        }
        let nodes = MatterServerNodes.all(model.snapshot, onlyAvailable: onlyAvailable) + tests
        send(Self.reply(id, JSONValue.array(nodes).rendered))
    }

    func getNode(_ id: String, _ args: NodeArguments) {
        let model = engine.model
        let nodeID = args.nodeID
        guard let node = MatterServerNodes.node(nodeID, model.snapshot) else {
            return send(Self.unknownNode(id, nodeID))
        }
        send(Self.reply(id, node.rendered))
    }

    func getNodeIpAddresses(_ id: String, _ args: NodeArguments) {
        let model = engine.model
        let nodeID = args.nodeID
        guard let node = model.snapshot.devices[nodeID]?.first?.node else {
            return send(Self.unknownNode(id, nodeID))
        }
        // The addresses the hub last reached the node at, most recent first.
        send(Self.reply(id, JSONValue.array(node.addresses.map { .string($0.host) }).rendered))
    }

    func removeNode(_ id: String, _ args: NodeArguments) {
        let model = engine.model
        let nodeID = args.nodeID
        guard model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        work { [self] in
            do throws(HomeError) {
                _ = try await engine.perform(Decommission(nodeID: nodeID), caller: caller)
                send(Self.reply(id, "null"))
            } catch {
                send(Self.error(id, .unknown, error.message))
            }
        }
    }

    func interviewNode(_ id: String, _ args: NodeArguments) {
        let model = engine.model
        // Answered once the node was read again; the node follows whole (node_updated) to every listening
        // client, as python-matter-server sends it after an interview.
        let nodeID = args.nodeID
        guard model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        work { [self] in
            do throws(HomeError) {
                _ = try await engine.perform(ReinterviewNode(nodeID: nodeID), caller: caller)
                send(Self.reply(id, "null"))
                peers.interviewed(nodeID)
            } catch {
                send(Self.error(id, MatterServerError(error)))
            }
        }
    }

    func pingNode(_ id: String, _ args: NodeArguments) {
        let model = engine.model
        let nodeID = args.nodeID
        guard model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        work { [self] in send(Self.reply(id, await ping(nodeID).rendered)) }
    }

    /// A command about a test node (`MatterServerTestNodes`), as python-matter-server answers it: what would reach
    /// the device does nothing and answers null; the node is read from its dump; removing it forgets it.
    func handle(
        _ command: String, _ id: String, _ args: [String: UntypedJSON], testNode nodeID: UInt64,
        _ test: MatterServerTestNodes.TestNode
    ) {
        switch command {
        case "get_node":
            send(Self.reply(id, test.json.rendered))
        case "read_attribute":
            // Read from its dump as from a live cache, its arguments checked as for any node.
            Self.commands["read_attribute"]?.run(self, id, args)
        case "device_command", "write_attribute", "set_acl_entry", "set_node_binding", "set_default_fabric_label":
            send(Self.reply(id, "null"))
        case "interview_node":
            send(Self.reply(id, "null"))
            peers.broadcast(Self.event("node_updated", test.json))
        case "remove_node":
            if peers.testNodes.remove(nodeID) { peers.broadcast(Self.event("node_removed", .unsigned(nodeID))) }
            send(Self.reply(id, "null"))
        case "get_node_ip_addresses":
            send(Self.reply(id, "[]"))
        case "ping_node":
            send(Self.reply(id, "{}"))
        default:
            send(
                Self.error(
                    id, .unknown,
                    "node \(nodeID) is a test node imported from a dump: \(command) needs a device, and it has none"))
        }
    }

    /// `{"<address>": reached}`: the hub's own live session answering a read (python-matter-server pings each address).
    func ping(_ nodeID: UInt64) async -> JSONValue {
        let address = engine.model.snapshot.devices[nodeID]?.first?.node.addresses.first
        do {
            let reached = try await engine.perform(PingNode(nodeID: nodeID, reads: 1), caller: caller).address
            return .object([(reached.host, .bool(true))])
        } catch {
            return .object(address.map { [($0.host, .bool(false))] } ?? [])
        }
    }
}
