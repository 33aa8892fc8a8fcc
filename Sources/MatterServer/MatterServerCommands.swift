import HomeEngine
import HomeHub
import HomeRecords
import HubWire

// The Matter-server API's commands, one entry each (python-matter-server's schema 11, `../shared/protocols/matter-server-ws.md`):
// the name a client sends, and the client's method that carries it out. A new command is one entry here and its method
// in the file of its group.
extension MatterServerClient {
    typealias Arguments = [String: UntypedJSON]
    /// A command's work: the client, the message ID to answer, the arguments, and the command's name.
    typealias Command = @Sendable (MatterServerClient, String, Arguments, String) -> Void

    static let commands: [String: Command] = [
        "server_info": { client, id, _, _ in client.answerServerInfo(id) },
        "start_listening": { client, id, _, _ in client.startListening(id) },
        "get_nodes": { client, id, args, _ in client.getNodes(id, args) },
        "get_node": { client, id, args, _ in client.getNode(id, args) },
        "set_default_fabric_label": { client, id, args, _ in client.setDefaultFabricLabel(id, args) },
        "device_command": { client, id, args, _ in client.deviceCommand(id, args) },
        "get_node_ip_addresses": { client, id, args, _ in client.getNodeIpAddresses(id, args) },
        "diagnostics": { client, id, args, _ in client.diagnostics(id, args) },
        "check_node_update": { $0.refuseUpdate($1, $2, command: $3) },
        "update_node": { $0.refuseUpdate($1, $2, command: $3) },
        "set_wifi_credentials": { client, id, _, _ in client.refuseNetworkCredentials(id) },
        "set_thread_dataset": { client, id, _, _ in client.refuseNetworkCredentials(id) },
        "read_attribute": { client, id, args, _ in client.readAttributes(id, args) },
        "write_attribute": { client, id, args, _ in client.writeAttribute(id, args) },
        "set_acl_entry": { client, id, args, _ in client.setAclEntry(id, args) },
        "set_node_binding": { client, id, args, _ in client.setNodeBinding(id, args) },
        "commission_with_code": { client, id, args, _ in client.commissionWithCode(id, args) },
        "commission_on_network": { client, id, args, _ in client.commissionOnNetwork(id, args) },
        "open_commissioning_window": { client, id, args, _ in client.openWindow(id, args) },
        "remove_node": { client, id, args, _ in client.removeNode(id, args) },
        "interview_node": { client, id, args, _ in client.interviewNode(id, args) },
        "import_test_node": { client, id, args, _ in client.importTestNode(id, args) },
        "discover": { client, id, args, _ in client.discover(id, args) },
        "get_vendor_names": { client, id, args, _ in client.vendorNames(id, args["filter_vendors"]) },
        "ping_node": { client, id, args, _ in client.pingNode(id, args) },
    ]
}
