import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire

// The Matter-server API's commands, one entry each (python-matter-server's schema 11, `../shared/protocols/matter-server-ws.md`):
// the name a client sends, the type its arguments decode as, and the client's method that carries it out. A new
// command is one entry here and its method in the file of its group.
extension MatterServerClient {
    /// A command's work: the client, the message ID to answer, and the arguments as they came.
    struct Command: Sendable {
        let run: @Sendable (MatterServerClient, _ id: String, _ args: [String: UntypedJSON]) -> Void

        /// A command whose arguments decode as `Arguments`; when they do not, error 8 naming the argument, and the
        /// method does not run.
        static func taking<Arguments: Decodable & Sendable>(
            _ type: Arguments.Type, _ body: @escaping @Sendable (MatterServerClient, String, Arguments) -> Void
        ) -> Command {
            Command { client, id, args in
                let decoded: Arguments
                do {
                    decoded = try UntypedJSON.object(args).decode(as: Arguments.self)
                } catch {
                    return client.send(MatterServerClient.error(id, MatterServerError(decoding: error)))
                }
                body(client, id, decoded)
            }
        }

        /// A command that reads no arguments.
        static func plain(_ body: @escaping @Sendable (MatterServerClient, String) -> Void) -> Command {
            Command { client, id, _ in body(client, id) }
        }
    }

    static let commands: [String: Command] = [
        "server_info": .plain { $0.answerServerInfo($1) },
        "start_listening": .plain { $0.startListening($1) },
        "get_nodes": .taking(GetNodesArguments.self) { $0.getNodes($1, $2) },
        "get_node": .taking(NodeArguments.self) { $0.getNode($1, $2) },
        "set_default_fabric_label": .taking(FabricLabelArguments.self) { client, id, _ in
            client.send(MatterServerClient.reply(id, "null"))
        },
        "device_command": .taking(DeviceCommandArguments.self) { $0.deviceCommand($1, $2) },
        "get_node_ip_addresses": .taking(NodeArguments.self) { $0.getNodeIpAddresses($1, $2) },
        "diagnostics": .plain { $0.diagnostics($1) },
        "check_node_update": .taking(NodeArguments.self) { $0.checkNodeUpdate($1, $2) },
        "update_node": .taking(UpdateNodeArguments.self) { $0.updateNode($1, $2) },
        "set_wifi_credentials": .taking(WiFiCredentialsArguments.self) { client, id, args in
            client.setNetworkCredentials(
                id,
                SetNetworkCredentials(
                    wifiSSID: args.ssid, passphrase: args.credentials.isEmpty ? nil : Array(args.credentials.utf8),
                    id: args.id ?? HubStore.defaultCredentialsID))
        },
        "set_thread_dataset": .taking(ThreadDatasetArguments.self) { client, id, args in
            guard let dataset = args.bytes else {
                return client.send(
                    MatterServerClient.error(id, .invalidArguments, "dataset is not hexadecimal (two digits a byte)"))
            }
            client.setNetworkCredentials(
                id, SetNetworkCredentials(threadDataset: dataset, id: args.id ?? HubStore.defaultCredentialsID))
        },
        "get_all_credentials": .plain { $0.allCredentials($1) },
        "remove_wifi_credentials": .taking(CredentialsIDArguments.self) { $0.removeCredentials($1, .wifi, $2.id) },
        "remove_thread_dataset": .taking(CredentialsIDArguments.self) { $0.removeCredentials($1, .thread, $2.id) },
        "read_attribute": .taking(ReadAttributeArguments.self) { $0.readAttributes($1, $2) },
        "write_attribute": .taking(WriteAttributeArguments.self) { $0.writeAttribute($1, $2) },
        "set_acl_entry": .taking(SetACLEntryArguments.self) { $0.setAclEntry($1, $2) },
        "set_node_binding": .taking(SetNodeBindingArguments.self) { $0.setNodeBinding($1, $2) },
        "commission_with_code": .taking(CommissionWithCodeArguments.self) { $0.commissionWithCode($1, $2) },
        "commission_on_network": .taking(CommissionOnNetworkArguments.self) { $0.commissionOnNetwork($1, $2) },
        "open_commissioning_window": .taking(OpenCommissioningWindowArguments.self) { $0.openWindow($1, $2) },
        "remove_node": .taking(NodeArguments.self) { $0.removeNode($1, $2) },
        "interview_node": .taking(NodeArguments.self) { $0.interviewNode($1, $2) },
        "import_test_node": .taking(ImportTestNodeArguments.self) { $0.importTestNode($1, $2) },
        "discover": .plain { $0.discover($1) },
        "get_vendor_names": .taking(VendorNamesArguments.self) { $0.vendorNames($1, $2.filterVendors) },
        "ping_node": .taking(NodeArguments.self) { $0.pingNode($1, $2) },
        "initiate_ota_upload": .plain { $0.initiateOTAUpload($1) },
        "get_fabric_label": .plain { $0.fabricLabel($1) },
        "get_thread_border_routers": .plain { $0.threadBorderRouters($1) },
        "get_thread_diagnostics": .taking(ThreadDiagnosticsArguments.self) { $0.threadDiagnostics($1, $2) },
        "get_network_topology": .taking(TopologyArguments.self) { $0.networkTopology($1, $2) },
        "get_icd_state": .taking(NodeArguments.self) { $0.checkIns($1, $2.nodeID, .read) },
        "register_icd": .taking(RegisterICDArguments.self) { client, id, args in
            client.checkIns(
                id, args.nodeID,
                .register(allowMultiAdmin: args.allowMultiAdmin ?? false, ignoredVendors: args.ignoredVendors ?? []))
        },
        "unregister_icd": .taking(UnregisterICDArguments.self) {
            $0.checkIns($1, $2.nodeID, .unregister(force: $2.force ?? false))
        },
        "resync_icd": .taking(NodeArguments.self) { $0.checkIns($1, $2.nodeID, .resync) },
        "get_loglevel": .plain { $0.logLevels($1) },
        "set_loglevel": .taking(LogLevelArguments.self) { $0.setLogLevel($1, $2) },
        "send_webrtc_provider_command": .plain { client, id in
            client.send(
                MatterServerClient.error(
                    id, .invalidCommand, "camera live view (WebRTC) is not supported: this hub has no camera support"))
        },
    ]
}
