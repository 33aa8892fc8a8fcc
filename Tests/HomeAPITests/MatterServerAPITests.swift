import Foundation
import HTTPWebSocket
import HomeHub
import HomeRecords
import MatterDataModel
import MatterDevice
import MatterDiscovery
import MatterNode
import MatterOTA
import MatterOnboarding
import MatterPlatform
import MatterTestSupport
import MatterTime
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire
@testable import MatterServer

/// The Matter-server API's first step on a real TCP socket on loopback: `/info`, the WebSocket handshake,
/// `server_info` first, and the protocol's errors for what is not built yet.
@Suite(.timeLimit(.minutes(1))) struct MatterServerAPITests {
    @Test func infoAndTheWebSocketAnswerAsPythonMatterServerDoes() async throws {
        try await withHome { home, _, _ in
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], grant: .all)
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            let authority = try home.hub.requireEngine("test").hub.authority
            let compressed = authority.compressedFabricIDNumber

            // GET /info: server_info as plain JSON; the compressed fabric ID a 64-bit integer, exactly.
            let info = try TestClient(address)
            info.write(Array("GET /info HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let response = String(decoding: await info.readToEnd(), as: UTF8.self)
            #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let body = try #require(response.components(separatedBy: "\r\n\r\n").last)
            #expect(body.contains("\"compressed_fabric_id\": \(compressed),"))
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            #expect(fields["schema_version"] as? Int == 13 && fields["min_supported_schema_version"] as? Int == 9)
            #expect((fields["fabric_id"] as? NSNumber)?.uint64Value == authority.fabricID)

            // GET /ws: upgraded, then server_info unprompted, then answers matched by message_id.
            let client = try TestClient(address)
            let upgrade = await client.openWebSocket()
            #expect(upgrade.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
            #expect(upgrade.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
            #expect(
                try await client.readText()
                    == MatterServerInfo(fabricID: authority.fabricID, compressedFabricID: compressed).json)

            client.sendText(#"{"message_id": "1", "command": "server_info"}"#)
            let again = try await client.readText()
            #expect(again.hasPrefix(#"{"message_id": "1", "result": {"fabric_id""#))
            client.sendText(#"{"message_id": "2", "command": "get_nodes"}"#)
            #expect(try await client.readText() == #"{"message_id": "2", "result": []}"#)
            // Network credentials are kept, bad ones refused with error 8; server_info then says they are set.
            client.sendText(
                #"{"message_id": "w1", "command": "set_wifi_credentials", "args": {"ssid": "Home", "credentials": "short"}}"#
            )
            #expect(
                try await client.readText().hasPrefix(
                    #"{"message_id": "w1", "error_code": 8, "details": "a Wi-Fi passphrase"#))
            client.sendText(
                #"{"message_id": "w2", "command": "set_wifi_credentials", "args": {"ssid": "Home", "credentials": "correct horse"}}"#
            )
            #expect(try await client.readText() == #"{"message_id": "w2", "result": null}"#)
            client.sendText(
                #"{"message_id": "w3", "command": "set_thread_dataset", "args": {"dataset": "0208111111112222222"}}"#)
            #expect(try await client.readText().hasPrefix(#"{"message_id": "w3", "error_code": 8"#))
            client.sendText(#"{"message_id": "w4", "command": "server_info"}"#)
            let credentialsInfo = try await client.readText()
            #expect(credentialsInfo.contains(#""wifi_credentials_set": true, "thread_credentials_set": false"#))
            #expect(!credentialsInfo.contains("horse"))
            client.sendText(#"{"message_id": "2a", "command": "discover"}"#)
            // This hub was given no interface to look on (home serve --interface).
            #expect(
                try await client.readText()
                    == #"{"message_id": "2a", "error_code": 0, "details": "the hub looks for devices on no interface: start it with home serve --interface NAME"}"#
            )
            client.sendText(#"{"message_id": "2b", "command": "get_node", "args": {"node_id": 18446744073709551615}}"#)
            #expect(
                try await client.readText()
                    == #"{"message_id": "2b", "error_code": 5, "details": "Node 18446744073709551615 does not exist or is not yet interviewed"}"#
            )
            // Arguments are decoded as the command's own before it runs: the one that fails is named.
            for (command, args, argument) in [
                ("get_node", #"{"node_id": "one"}"#, "node_id"),
                ("get_node", "{}", "node_id"),
                ("ping_node", #"{"node_id": -1}"#, "node_id"),
                (
                    "device_command",
                    #"{"node_id": 1, "endpoint_id": 70000, "cluster_id": 6, "command_name": "On"}"#, "endpoint_id"
                ),
                ("device_command", #"{"node_id": 1, "endpoint_id": 1, "cluster_id": 6}"#, "command_name"),
                ("read_attribute", #"{"node_id": 1, "attribute_path": 5}"#, "attribute_path"),
                ("write_attribute", #"{"node_id": 1, "attribute_path": "1/6/0"}"#, "value"),
                ("set_default_fabric_label", #"{}"#, "label"),
                ("get_vendor_names", #"{"filter_vendors": ["Acme"]}"#, "filter_vendors"),
            ] {
                client.sendText(#"{"message_id": "2c", "command": "\#(command)", "args": \#(args)}"#)
                #expect(
                    try await client.readText()
                        == #"{"message_id": "2c", "error_code": 8, "details": "\#(argument) is missing or not of its type"}"#,
                    "\(command) \(args)")
            }
            // Refused before anything is sent: no code, a Bluetooth-only code, a window out of range, no such node.
            client.sendText(#"{"message_id": "c1", "command": "commission_with_code", "args": {"code": "nonsense"}}"#)
            #expect(try await client.readText().contains(#""message_id": "c1", "error_code": 8"#))
            let bluetoothOnly = try SetupPayload(
                vendorID: 0xFFF1, productID: 0x8000, discoveryCapabilities: [.ble], discriminator: .long(3840),
                passcode: 20202021
            ).qrCode()
            client.sendText(
                #"{"message_id": "c2", "command": "commission_with_code", "args": {"code": "\#(bluetoothOnly)"}}"#)
            let refused = try await client.readText()
            #expect(
                refused.contains(#""message_id": "c2", "error_code": 1"#) && refused.contains("Bluetooth"), "\(refused)"
            )
            for (args, reason) in [
                (#"{"setup_pin_code": 20202021, "filter_type": 3, "filter": 65521}"#, "filter_type 3 is not built"),
                (#"{"setup_pin_code": 20202021, "ip_addr": "kitchen"}"#, "ip_addr kitchen is no IP address"),
                (#"{"setup_pin_code": 11111111, "ip_addr": "::1"}"#, "11111111 is not a valid setup passcode"),
            ] {
                client.sendText(#"{"message_id": "n", "command": "commission_on_network", "args": \#(args)}"#)
                let answer = try await client.readText()
                #expect(answer.hasPrefix(#"{"message_id": "n", "error_code": 8, "details": "\#(reason)"#), "\(answer)")
            }
            client.sendText(
                #"{"message_id": "p", "command": "commission_on_network", "args": {"setup_pin_code": 20202021}}"#)
            #expect(
                try await client.readText().hasPrefix(
                    #"{"message_id": "p", "error_code": 1, "details": "the hub looks for devices on no interface"#))
            client.sendText(
                #"{"message_id": "w", "command": "open_commissioning_window", "args": {"node_id": 1, "timeout": 10}}"#)
            #expect(
                try await client.readText().contains(
                    #""message_id": "w", "error_code": 8, "details": "timeout must be 180 to 900 s"#))
            client.sendText(#"{"message_id": "r", "command": "remove_node", "args": {"node_id": 7}}"#)
            #expect(try await client.readText().contains(#""message_id": "r", "error_code": 5"#))
            client.sendText(#"{"message_id": "3", "command": "make_coffee"}"#)
            #expect(
                try await client.readText()
                    == #"{"message_id": "3", "error_code": 9, "details": "Invalid command: make_coffee"}"#)
            client.sendText("not json")
            #expect(try await client.readText().contains(#""error_code": 8"#))
            client.sendFrame(0x8, [0x03, 0xE8])
            #expect(try await client.readFrame() == (0x8, [0x03, 0xE8]))
            #expect(await client.readToEnd().isEmpty, "the server closes after the close handshake")
        }
    }
}

extension MatterServerAPITests {
    /// start_listening on a hub with a live light: the node as MatterNodeData (its live attributes, tag-keyed, and
    /// available), then an attribute_updated when the light is switched on through the Home API: one hub, two views.
    @Test func startListeningGivesTheNodesThenTheirChanges() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, _ in
            try await home.hub.followEveryNode()
            let lamp = try #require(
                try await home.devices().list().first { $0.types.contains(OnOffLightDeviceType.self) })
            let onOff = try #require(await lamp.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info

            client.sendText(#"{"message_id": "listen", "command": "start_listening"}"#)
            let reply = try #require(try? await client.readText(), "no answer to start_listening")
            #expect(reply.hasPrefix(#"{"message_id": "listen", "result": [{"node_id":\#(nodeID),"#))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
            let nodes = try #require(object["result"] as? [[String: Any]])
            let node = try #require(nodes.first)
            #expect(node["available"] as? Bool == true)
            #expect(node["is_bridge"] as? Bool == false)
            #expect(node["interview_version"] as? Int == 6)
            let attributes = try #require(node["attributes"] as? [String: Any])
            #expect(attributes["1/6/0"] as? Bool == false)
            #expect(attributes["0/40/1"] as? String == "swift-home", "BasicInformation.VendorName")
            // Structs keyed by field tag: DeviceTypeList of endpoint 1 holds On/Off Light (0x0100).
            let types = try #require(attributes["1/29/0"] as? [[String: Any]])
            #expect(types.contains { $0["0"] as? Int == 0x0100 })
            #expect((node["date_commissioned"] as? String)?.count == 19)

            try await onOff.on()
            var updates: [String] = []
            for _ in 0..<10 {
                guard let frame = try? await client.readText() else {
                    Issue.record("no attribute_updated for 1/6/0: \(updates)")
                    break
                }
                updates.append(frame)
                if frame.contains(#""1/6/0""#) { break }
            }
            #expect(updates.last == #"{"event": "attribute_updated", "data": [\#(nodeID),"1/6/0",true]}"#, "\(updates)")

            // read_attribute from the live cache: one path, a wildcard, a list.
            let read = { (paths: String) in
                #"{"message_id": "read", "command": "read_attribute", "args": {"node_id": \#(nodeID), "attribute_path": \#(paths)}}"#
            }
            client.sendText(read(#""1/6/0""#))
            #expect(try await client.readText() == #"{"message_id": "read", "result": {"1/6/0":true}}"#)
            client.sendText(read(#"["0/40/1", "1/6/*"]"#))
            let many = try await client.readText()
            #expect(
                many.hasPrefix(#"{"message_id": "read", "result": {"0/40/1":"swift-home","1/6/0":true,"#), "\(many)")
            client.sendText(read(#""1/6""#))
            #expect(try await client.readText().contains(#""error_code": 8"#))

            // device_command, name-keyed: bad fields are refused before anything is sent; Off reaches the device.
            let command = { (name: String, payload: String) in
                #"{"message_id": "\#(name)", "command": "device_command", "args": {"node_id": \#(nodeID), "endpoint_id": 1, "cluster_id": 6, "command_name": "\#(name)", "payload": \#(payload)}}"#
            }
            client.sendText(command("Dance", "{}"))
            #expect(
                try await client.readText()
                    == #"{"message_id": "Dance", "error_code": 8, "details": "OnOff has no command Dance (its commands: Off, OffWithEffect, On, OnWithRecallGlobalScene, OnWithTimedOff, Toggle)"}"#
            )
            client.sendText(command("OffWithEffect", #"{"effectIdentifier": 0, "effectVariant": "slow"}"#))
            #expect(
                try await client.readText()
                    == #"{"message_id": "OffWithEffect", "error_code": 8, "details": "OnOff.OffWithEffect: field effectVariant is an integer from 0 to 255, not slow"}"#
            )
            client.sendText(command("Off", #"{"level": 3}"#))
            #expect(
                try await client.readText().contains(
                    #""error_code": 8, "details": "OnOff.Off: the command has no field level"#))
            client.sendText(command("Off", "{}"))
            var answers: [String] = []
            for _ in 0..<10 {
                guard let frame = try? await client.readText() else { break }
                answers.append(frame)
                if answers.contains(#"{"message_id": "Off", "result": null}"#)
                    && answers.contains(#"{"event": "attribute_updated", "data": [\#(nodeID),"1/6/0",false]}"#)
                {
                    break
                }
            }
            #expect(answers.contains(#"{"message_id": "Off", "result": null}"#), "\(answers)")
            #expect(
                answers.contains(#"{"event": "attribute_updated", "data": [\#(nodeID),"1/6/0",false]}"#), "\(answers)")
            #expect(await lamp.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait?.attributes.onOff == false)

            let ask = { (command: String) in
                #"{"message_id": "\#(command)", "command": "\#(command)", "args": {"node_id": \#(nodeID)}}"#
            }
            client.sendText(ask("get_node_ip_addresses"))
            #expect(try await client.readText() == #"{"message_id": "get_node_ip_addresses", "result": ["127.0.0.1"]}"#)
            client.sendText(ask("diagnostics"))
            let diagnostics = try await client.readText()
            #expect(diagnostics.hasPrefix(#"{"message_id": "diagnostics", "result": {"info": {"fabric_id": "#))
            #expect(diagnostics.contains(#""nodes": [{"node_id":\#(nodeID),"#))
            // No image in the hub's folder: nothing to update to.
            client.sendText(ask("check_node_update"))
            #expect(try await client.readText() == #"{"message_id": "check_node_update", "result": null}"#)
            // The server stops: a listening client is told, then the connection closes.
            api.stop()
            #expect(try await client.readText() == #"{"event": "server_shutdown", "data": null}"#)
        }
    }
}

extension MatterServerAPITests {
    /// write_attribute as python-matter-server answers it (the device's status for the path, a refusal included),
    /// refused before anything is sent when the data model does not let clients write the attribute or the value has
    /// the wrong type; set_acl_entry replaces the node's ACL for this fabric, name-keyed entries as the client sends.
    @Test func writesAnswerTheDevicesStatusAndSetACLEntryReplacesTheACL() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], grant: .all)
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            let write = { (id: String, path: String, value: String) in
                #"{"message_id": "\#(id)", "command": "write_attribute", "args": {"node_id": \#(nodeID), "attribute_path": "\#(path)", "value": \#(value)}}"#
            }
            let status = { (id: String, endpoint: Int, cluster: Int, attribute: Int, status: Int) in
                #"{"message_id": "\#(id)", "result": [{"Path":{"EndpointId":\#(endpoint),"ClusterId":\#(cluster),"AttributeId":\#(attribute)},"Status":\#(status)}]}"#
            }
            let read = { (path: String) async throws -> String in
                client.sendText(
                    #"{"message_id": "read", "command": "read_attribute", "args": {"node_id": \#(nodeID), "attribute_path": "\#(path)"}}"#
                )
                return try await client.readText()
            }

            client.sendText(write("label", "0/40/5", #""Porch""#))
            #expect(try await client.readText() == status("label", 0, 40, 5, 0))
            var label = ""
            for _ in 0..<50 where !label.contains("Porch") {
                label = try await read("0/40/5")
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(label == #"{"message_id": "read", "result": {"0/40/5":"Porch"}}"#)
            // The device's own refusal is the answer: NodeLabel is at most 32 bytes (CONSTRAINT_ERROR, 0x87).
            client.sendText(write("long", "0/40/5", #""\#(String(repeating: "x", count: 33))""#))
            #expect(try await client.readText() == status("long", 0, 40, 5, 0x87))
            for (id, path, value, details) in [
                ("vendor", "0/40/1", #""Acme""#, "BasicInformation.VendorName is not an attribute a client may write"),
                ("number", "0/40/5", "5", "BasicInformation.NodeLabel: the value is not a string"),
                (
                    "wild", "0/40/*", #""x""#,
                    "attribute_path is endpoint/cluster/attribute, three numbers (a write has no wildcard)"
                ),
                ("null", "0/40/5", "null", "BasicInformation.NodeLabel: the value may not be null"),
            ] {
                client.sendText(write(id, path, value))
                let answer = try await client.readText()
                #expect(answer == #"{"message_id": "\#(id)", "error_code": 8, "details": "\#(details)"}"#)
            }

            // The ACL as it is (tag-keyed), then with an Operate entry for another node added (name-keyed).
            let before = try await read("0/31/0")
            let admin = try #require(before.firstMatch(of: /"3":\[(\d+)\]/)?.1)
            let entries =
                #"[{"privilege": 5, "authMode": 2, "subjects": [\#(admin)], "targets": null, "fabricIndex": 1}, "#
                + #"{"privilege": 3, "authMode": 2, "subjects": [4660], "targets": null, "fabricIndex": 1}]"#
            client.sendText(
                #"{"message_id": "acl", "command": "set_acl_entry", "args": {"node_id": \#(nodeID), "entry": \#(entries)}}"#
            )
            #expect(try await client.readText() == status("acl", 0, 31, 0, 0))
            var acl = before
            for _ in 0..<50 where !acl.contains("4660") {
                acl = try await read("0/31/0")
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(
                acl
                    == #"{"message_id": "read", "result": {"0/31/0":[{"1":5,"2":2,"3":[\#(admin)],"4":null,"254":1},{"1":3,"2":2,"3":[4660],"4":null,"254":1}]}}"#
            )
            // The hub is still the node's administrator: it answers.
            client.sendText(write("again", "0/40/5", #""Hall""#))
            #expect(try await client.readText() == status("again", 0, 40, 5, 0))

            // A command the specification makes timed is sent timed though the client did not ask: the device refuses
            // RevokeCommissioning for its closed window (cluster status 4, WindowNotOpen), not for want of a timed invoke.
            client.sendText(
                #"{"message_id": "revoke", "command": "device_command", "args": {"node_id": \#(nodeID), "endpoint_id": 0, "cluster_id": 60, "command_name": "RevokeCommissioning", "payload": {}}}"#
            )
            let revoked = try await client.readText()
            #expect(revoked.hasPrefix(#"{"message_id": "revoke", "error_code": 0, "#), "\(revoked)")
            #expect(revoked.contains("cluster status 0x04"), "\(revoked)")
            #expect(!revoked.contains("NEEDS_TIMED"), "\(revoked)")
        }
    }

    /// server_info's bluetooth_enabled says whether Bluetooth LE reaches a device now: false with no adapter and no
    /// proxy, true once a proxy says hello on /ble, false again when it goes, each change a server_info_updated.
    @Test func bluetoothEnabledFollowsWhetherAProxyIsConnected() async throws {
        try await withHome { home, _, _ in
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            let client = try TestClient(address)
            await client.openWebSocket()
            #expect(try await client.readText().contains(#""bluetooth_enabled": false, "ble_proxy_enabled": true"#))
            client.sendText(#"{"message_id": "listen", "command": "start_listening"}"#)
            #expect(try await client.readText().hasPrefix(#"{"message_id": "listen", "result""#))

            let proxy = try TestClient(address)
            #expect(await proxy.openWebSocket(path: "/ble").hasPrefix("HTTP/1.1 101 "))
            proxy.sendText(#"{"type": "hello", "version": 1}"#)
            let up = try await client.readText()
            #expect(up.hasPrefix(#"{"event": "server_info_updated""#) && up.contains(#""bluetooth_enabled": true"#))
            proxy.disconnect()
            let down = try await client.readText()
            #expect(
                down.hasPrefix(#"{"event": "server_info_updated""#) && down.contains(#""bluetooth_enabled": false"#))
        }
    }

    /// Without a token whoever reaches loopback is no owner: it controls devices (and adds, removes and updates them,
    /// as Home Assistant does), but what changes who controls a node, by its own command or by hand, and the home's
    /// network secrets are refused before anything is sent; `--api-grant` gives them.
    @Test func aLoopbackClientWithoutATokenControlsDevicesButSharesAndAdministersNothing() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, device in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            #expect(api.clientRights == .devices)
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            let ask = { (id: String, command: String, args: String) async throws -> String in
                client.sendText(#"{"message_id": "\#(id)", "command": "\#(command)", "args": \#(args)}"#)
                return try await client.readText()
            }
            let on = try await ask(
                "on", "device_command",
                #"{"node_id": \#(nodeID), "endpoint_id": 1, "cluster_id": 6, "command_name": "On", "payload": {}}"#)
            #expect(on.hasPrefix(#"{"message_id": "on", "result""#), "\(on)")
            let refusals = [
                (
                    "window", "device_command",
                    #"{"node_id": \#(nodeID), "endpoint_id": 0, "cluster_id": 60, "command_name": "OpenBasicCommissioningWindow", "payload": {"commissioningTimeout": 180}}"#
                ),
                (
                    "leave", "device_command",
                    #"{"node_id": \#(nodeID), "endpoint_id": 0, "cluster_id": 62, "command_name": "RemoveFabric", "payload": {"fabricIndex": 1}}"#
                ),
                ("acl", "write_attribute", #"{"node_id": \#(nodeID), "attribute_path": "0/31/0", "value": []}"#),
                ("entry", "set_acl_entry", #"{"node_id": \#(nodeID), "entry": []}"#),
                ("share", "open_commissioning_window", #"{"node_id": \#(nodeID)}"#),
                ("wifi", "set_wifi_credentials", #"{"ssid": "Home", "credentials": "correct horse"}"#),
                ("quiet", "set_loglevel", #"{"console_loglevel": "critical"}"#),
            ]
            for (id, command, args) in refusals {
                let answer = try await ask(id, command, args)
                #expect(answer.hasPrefix(#"{"message_id": "\#(id)", "error_code": 0, "#), "\(command): \(answer)")
                #expect(answer.contains("a client of the hub's loopback listener may not"), "\(command): \(answer)")
            }
            #expect(await !device.isCommissioningWindowOpen)
            #expect(await device.fabrics.count == 1)
            #expect(try await home.hub.perform(ReadNetworkCredentials()).entries.isEmpty)
            #expect(try #require(home.hub.engine).logLevel == .info)
            // A firmware upload's ticket is for who may add images.
            let ticket = try await ask("upload", "initiate_ota_upload", "{}")
            #expect(ticket.hasPrefix(#"{"message_id": "upload", "error_code": 101, "#), "\(ticket)")
            #expect(ticket.contains("may not upload a firmware image"), "\(ticket)")

            // Given administer, the same client opens the window by hand.
            let granted = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], grant: [.administer])
            defer { granted.stop() }
            let administrator = try TestClient(try #require(granted.addresses.first))
            await administrator.openWebSocket()
            _ = try await administrator.readText()
            administrator.sendText(
                #"{"message_id": "window", "command": "device_command", "args": {"node_id": \#(nodeID), "endpoint_id": 0, "cluster_id": 60, "command_name": "OpenBasicCommissioningWindow", "payload": {"commissioningTimeout": 180}}}"#
            )
            let opened = try await administrator.readText()
            #expect(opened.hasPrefix(#"{"message_id": "window", "result""#), "\(opened)")
            #expect(await device.isCommissioningWindowOpen)
        }
    }

    /// A bridge's new bridged device: the node whole first (node_updated), then endpoint_added, and no
    /// attribute_updated of an endpoint the client has not been given; a removed one is endpoint_removed.
    /// interview_node answers null and sends the node whole; get_vendor_names names the vendors the devices name.
    @Test func aBridgesEndpointsComeAndGoAsPythonMatterServerSendsThem() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .bridge) { home, bridge, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            client.sendText(#"{"message_id": "listen", "command": "start_listening"}"#)
            _ = try await client.readText()

            let endpoint = try await bridge.addBridgedDevice(label: "Shed light")
            var frames: [String] = []
            let added = #"{"event": "endpoint_added", "data": {"node_id":\#(nodeID),"endpoint_id":\#(endpoint)}}"#
            while !frames.contains(added), let frame = try? await client.readText() { frames.append(frame) }
            let updated = try #require(frames.firstIndex { $0.hasPrefix(#"{"event": "node_updated""#) }, "\(frames)")
            #expect(frames[updated].contains(#""\#(endpoint)/6/0":false"#))
            #expect(updated < frames.firstIndex(of: added)!)
            let early = frames[..<updated].filter { $0.contains(#","\#(endpoint)/"#) }
            #expect(early.isEmpty, "attribute_updated before the client had the endpoint: \(early)")

            try await bridge.removeBridgedDevice(endpoint: endpoint)
            let removed = #"{"event": "endpoint_removed", "data": {"node_id":\#(nodeID),"endpoint_id":\#(endpoint)}}"#
            frames = []
            while !frames.contains(removed), let frame = try? await client.readText() { frames.append(frame) }
            #expect(frames.contains(removed), "\(frames)")

            // What the interview finds changed comes as attribute_updated (an uptime); the answer, then the node whole.
            client.sendText(
                #"{"message_id": "interview", "command": "interview_node", "args": {"node_id": \#(nodeID)}}"#)
            frames = []
            while !frames.contains(where: { $0.hasPrefix(#"{"event": "node_updated""#) }),
                let frame = try? await client.readText()
            {
                if !frame.hasPrefix(#"{"event": "attribute_updated""#) { frames.append(frame) }
            }
            #expect(frames.first == #"{"message_id": "interview", "result": null}"#, "\(frames)")
            #expect(frames.last?.hasPrefix(#"{"event": "node_updated", "data": {"node_id":\#(nodeID),"#) == true)

            let answer = { (id: String) async throws -> String? in
                while let frame = try? await client.readText() {
                    if frame.hasPrefix(#"{"message_id": "\#(id)""#) { return frame }
                }
                return nil
            }
            client.sendText(#"{"message_id": "vendors", "command": "get_vendor_names"}"#)
            #expect(try await answer("vendors") == #"{"message_id": "vendors", "result": {"65521":"swift-home"}}"#)
            client.sendText(
                #"{"message_id": "some", "command": "get_vendor_names", "args": {"filter_vendors": [4937]}}"#)
            #expect(try await answer("some") == #"{"message_id": "some", "result": {}}"#)
        }
    }

    /// import_test_node as python-matter-server takes it: a Home Assistant diagnostics dump (here of the hub's own
    /// light) becomes node 900000, told to listening clients, served from its dump (the same node but for its ID), its
    /// commands doing nothing; removing it forgets it; a bad dump imports nothing.
    @Test func testNodesComeFromADumpAndReachNoDevice() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            let answer = { (id: String) async throws -> String? in
                while let frame = try? await client.readText() {
                    if frame.hasPrefix(#"{"message_id": "\#(id)""#) { return frame }
                }
                return nil
            }
            client.sendText(#"{"message_id": "node", "command": "get_node", "args": {"node_id": \#(nodeID)}}"#)
            let real = String(
                try #require(try await answer("node")).dropFirst(#"{"message_id": "node", "result": "#.count).dropLast()
            )
            client.sendText(#"{"message_id": "listen", "command": "start_listening"}"#)
            _ = try await answer("listen")

            for (dump, details) in [
                ("not json", "the dump is not a diagnostics file: JSON with a data object expected"),
                (#"{"data": {"node": {"node_id": 1}}}"#, "node 0 has no valid date_commissioned"),
                (#"{"data": {}}"#, "the dump has neither data.node nor data.server.nodes"),
            ] {
                let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [dump]), as: UTF8.self)
                client.sendText(
                    #"{"message_id": "bad", "command": "import_test_node", "args": {"dump": \#(quoted.dropFirst().dropLast())}}"#
                )
                #expect(try await answer("bad") == #"{"message_id": "bad", "error_code": 8, "details": "\#(details)"}"#)
            }
            let dump = String(
                decoding: try JSONSerialization.data(withJSONObject: [#"{"data": {"node": \#(real)}}"#]), as: UTF8.self)
            client.sendText(
                #"{"message_id": "import", "command": "import_test_node", "args": {"dump": \#(dump.dropFirst().dropLast())}}"#
            )
            #expect(try await answer("import") == #"{"message_id": "import", "result": null}"#)
            let expected = real.replacingOccurrences(of: #""node_id":\#(nodeID)"#, with: #""node_id":900000"#)
            client.sendText(#"{"message_id": "test", "command": "get_node", "args": {"node_id": 900000}}"#)
            let test = try #require(try await answer("test"))
            let decode = { (text: String) in try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary }
            let served = String(test.dropFirst(#"{"message_id": "test", "result": "#.count).dropLast())
            #expect(try decode(expected)?["attributes"] != nil)
            #expect(try decode(served) == decode(expected))
            client.sendText(
                #"{"message_id": "read", "command": "read_attribute", "args": {"node_id": 900000, "attribute_path": "0/40/1"}}"#
            )
            #expect(try await answer("read") == #"{"message_id": "read", "result": {"0/40/1":"swift-home"}}"#)
            client.sendText(
                #"{"message_id": "off", "command": "device_command", "args": {"node_id": 900000, "endpoint_id": 1, "cluster_id": 6, "command_name": "Off", "payload": {}}}"#
            )
            #expect(try await answer("off") == #"{"message_id": "off", "result": null}"#)
            client.sendText(
                #"{"message_id": "window", "command": "open_commissioning_window", "args": {"node_id": 900000}}"#)
            #expect(try await answer("window")?.contains(#""error_code": 0"#) == true)
            client.sendText(#"{"message_id": "nodes", "command": "get_nodes"}"#)
            #expect(try await answer("nodes")?.contains(#"{"node_id":900000,"#) == true)
            client.sendText(#"{"message_id": "remove", "command": "remove_node", "args": {"node_id": 900000}}"#)
            #expect(try await answer("remove") == #"{"message_id": "remove", "result": null}"#)
            client.sendText(#"{"message_id": "gone", "command": "get_node", "args": {"node_id": 900000}}"#)
            #expect(try await answer("gone")?.contains(#""error_code": 5"#) == true)
            #expect(home.context.model.snapshot.devices.keys.sorted() == [nodeID], "the home never had the test node")
        }
    }

    /// Beyond loopback only with a token; with one, every request presents it (query or Bearer), in a file only its
    /// owner reads.
    @Test func aTokenGuardsTheAPIAndIsReadOnlyFromAPrivateFile() async throws {
        try await withHome { home, _, directory in
            let beyond = #expect(throws: HomeError.self) {
                try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(0), port: 0)])
            }
            #expect(beyond?.message.contains("beyond loopback, needs a token") == true)

            let path = directory + "/token"
            let secret = "4f1c9a27e0b84d6c9e1f"
            #expect(FileManager.default.createFile(atPath: path, contents: Data((secret + "\n").utf8)))
            chmod(path, 0o644)
            let open = #expect(throws: HomeError.self) { try MatterServerToken(contentsOf: path) }
            #expect(open?.message.contains("can be read by others (mode 644): chmod 600 it") == true)
            chmod(path, 0o600)
            let token = try MatterServerToken(contentsOf: path)
            #expect(FileManager.default.createFile(atPath: directory + "/short", contents: Data("abc".utf8)))
            chmod(directory + "/short", 0o600)
            #expect(throws: HomeError.self) { try MatterServerToken(contentsOf: directory + "/short") }

            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], token: token)
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            func get(_ target: String, _ fields: String = "") async throws -> String {
                let client = try TestClient(address)
                client.write(Array("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\(fields)\r\n".utf8))
                return String(decoding: await client.readToEnd(), as: UTF8.self)
            }
            #expect(try await get("/info").hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
            // A URL's token is taken only where a client has nowhere else to put it (the WebSockets): logs keep URLs.
            #expect(try await get("/info?token=\(secret)").hasPrefix("HTTP/1.1 401 "))
            #expect(try await get("/info", "Authorization: Bearer \(secret)\r\n").hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(try await get("/info", "Authorization: Basic \(secret)\r\n").hasPrefix("HTTP/1.1 401 "))
            let byURL = try TestClient(address)
            #expect(await byURL.openWebSocket(path: "/ws?token=\(secret)").hasPrefix("HTTP/1.1 101 "))

            // Fifty wrong tokens on /ws from one host: five are told 401, the rest 429 (the sign-in's limit, counted
            // together with it), the right token too, on every route; another host is served.
            func webSocket(_ token: String, from host: UInt32) async throws -> String {
                let client = try TestClient(address, from: IPv4Address(host))
                return await client.openWebSocket(path: "/ws", fields: "Authorization: Bearer \(token)\r\n")
            }
            let guesser: UInt32 = 127 << 24 | 6
            var answers: [String: Int] = [:]
            for guess in 0..<50 {
                let head = try await webSocket("4f1c9a27e0b84d6c\(1000 + guess)", from: guesser)
                answers[String(head.prefix(12)), default: 0] += 1
            }
            #expect(answers == ["HTTP/1.1 401": WrongTokens.limit, "HTTP/1.1 429": 50 - WrongTokens.limit])
            #expect(try await webSocket(secret, from: guesser).hasPrefix("HTTP/1.1 429 "))
            let info = try TestClient(address, from: IPv4Address(guesser))
            info.write(Array("GET /info HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(secret)\r\n\r\n".utf8))
            #expect(String(decoding: await info.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 429 "))
            let signIn = try TestClient(address, from: IPv4Address(guesser))
            let body = "token=\(secret)"
            signIn.write(
                Array(
                    ("POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8))
            #expect(String(decoding: await signIn.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 429 "))
            #expect(try await webSocket(secret, from: 127 << 24 | 7).hasPrefix("HTTP/1.1 101 "))
        }
    }
}

/// A blocking TCP client with a receive timeout, so no test waits for ever. Used by one task at a time.
extension MatterServerAPITests {
    /// A client that goes away while a command of its is at work (a commissioning waiting on a device that does not
    /// answer) has the command cancelled, rather than run on for nobody.
    @Test func aClientsCommandsStopWhenItDisconnects() async throws {
        try await withHome { home, _, path in
            // A trust store, so the commissioning gets as far as PASE, and a socket on 127.0.0.1:5540 that takes every
            // datagram and answers none (a closed port would fail PASE at once): PASE waits on MRP for seconds.
            let silent = try UDPSocket(family: .ipv4)
            try silent.bind(to: .ipv4(IPv4Address(127 << 24 | 1), port: 5540))
            try FileManager.default.createDirectory(atPath: path + "/paa", withIntermediateDirectories: true)
            let paa = try DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100).paa
            #expect(FileManager.default.createFile(atPath: path + "/paa/paa.der", contents: Data(paa)))
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            _ = await client.openWebSocket()
            _ = try await client.readText()
            client.sendText(
                #"{"message_id": "w", "command": "commission_on_network", "args": {"setup_pin_code": 20202021, "ip_addr": "127.0.0.1"}}"#
            )
            // PASE's first message reaches the silent socket: the commissioning is at work, waiting on MRP. (A loaded
            // machine may take seconds to get there: the hub opens its fabric and its trust store first.)
            #expect(try silent.receive(timeout: .seconds(30)) != nil)
            #expect(api.commandsInFlight == 1)
            // More at once than a client may have at work: the one past the bound is told so at once.
            for index in 1..<MatterServerClient.commandsAtOnce {
                client.sendText(
                    #"{"message_id": "w\#(index)", "command": "commission_on_network", "args": {"setup_pin_code": 20202021, "ip_addr": "127.0.0.1"}}"#
                )
            }
            client.sendText(#"{"message_id": "past", "command": "get_nodes"}"#)
            let past = try await client.readText()
            #expect(past.hasPrefix(#"{"message_id": "past", "error_code": 0, "details": "64 commands"#), "\(past)")
            #expect(api.commandsInFlight == MatterServerClient.commandsAtOnce)
            client.disconnect()
            #expect(await eventually(within: .seconds(5)) { api.commandsInFlight == 0 })
            // Cancelled, it sends nothing more once the cancellation reached its exchange (a loaded machine may take a
            // moment: a second's grace); run on, MRP would retransmit at about 1.7 s and 3 s after its first message.
            while try silent.receive(timeout: .seconds(1)) != nil {}
            var retransmissions = 0
            let until = ContinuousClock.now + .seconds(3)
            while ContinuousClock.now < until {
                if try silent.receive(timeout: .milliseconds(100)) != nil { retransmissions += 1 }
            }
            #expect(retransmissions <= 1, "the commissioning went on after its client left")
        }
    }
}

final class TestClient: @unchecked Sendable {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `address`, from `source` when given (another loopback address is another peer to the hub).
    init(_ address: SocketAddress, from source: IPv4Address? = nil) throws {
        guard case .ipv4(let host, let port) = address else { throw POSIXError(.EAFNOSUPPORT) }
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            withUnsafeMutableBytes(of: &local.sin_addr) { $0.copyBytes(from: source.bytes) }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        }
        // Every read waits for a frame the test expects; the timeout only bounds a failure. 5 s was once outlasted by
        // a stall of the whole loaded test process (two tests timed out at the same moment), so 15.
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var storage = sockaddr_in()
        storage.sin_family = sa_family_t(AF_INET)
        storage.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &storage.sin_addr) { $0.copyBytes(from: host.bytes) }
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    /// Goes away as a client process that ends does: the connection closes.
    func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads more into the buffer; false at the end (or the timeout). `recv` blocks, so it runs on a thread of its
    /// own: a test waiting for what the hub's tasks send must not hold one of the cooperative pool's few threads
    /// meanwhile (two such waits at once would stall every task of the process, the hub's among them). Not a Dispatch
    /// global queue either: on Linux the pool runs on those, and blocking them starved it the same way.
    private func fill() async -> Bool {
        let descriptor = descriptor
        let chunk = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                continuation.resume(returning: Array(chunk[0..<max(0, count)]))
            }
        }
        buffer += chunk
        return !chunk.isEmpty
    }

    func readToEnd() async -> [UInt8] {
        while await fill() {}
        defer { buffer = [] }
        return buffer
    }

    func readHead() async -> [UInt8] {
        while true {
            if let end = (0..<max(0, buffer.count - 3)).first(where: { buffer[$0..<$0 + 4] == [13, 10, 13, 10] }) {
                defer { buffer.removeFirst(end + 4) }
                return Array(buffer[..<(end + 4)])
            }
            guard await fill() else { return buffer }
        }
    }

    func readFrame() async throws -> (UInt8, [UInt8]) {
        func need(_ count: Int) async throws {
            while buffer.count < count { guard await fill() else { throw POSIXError(.ETIMEDOUT) } }
        }
        try await need(2)
        var length = Int(buffer[1] & 0x7F)
        var header = 2
        if length == 126 {
            try await need(4)
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            try await need(10)
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            header = 10
        }
        try await need(header + length)
        defer { buffer.removeFirst(header + length) }
        return (buffer[0] & 0x0F, Array(buffer[header..<(header + length)]))
    }

    func readText() async throws -> String {
        let (opcode, payload) = try await readFrame()
        guard opcode == 0x1 else { throw POSIXError(.EPROTO) }
        return String(decoding: payload, as: UTF8.self)
    }

    func sendFrame(_ opcode: UInt8, _ payload: [UInt8]) {
        let mask: [UInt8] = [9, 8, 7, 6]
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        write(frame + mask + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] })
    }

    func sendText(_ text: String) { sendFrame(0x1, Array(text.utf8)) }

    /// The WebSocket handshake on `path`, with `fields` (each ending in CRLF) besides; its response.
    @discardableResult
    func openWebSocket(path: String = "/ws", fields: String = "") async -> String {
        write(
            Array(
                """
                GET \(path) HTTP/1.1\r
                Host: 127.0.0.1\r
                \(fields)Upgrade: websocket\r
                Connection: Upgrade\r
                Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
                Sec-WebSocket-Version: 13\r
                \r

                """.utf8))
        return String(decoding: await readHead(), as: UTF8.self)
    }
}

extension Home {
    /// The Matter-server API on this test's hub, as `home serve --listen` serves it.
    func serveMatterServerAPI(
        listeningOn addresses: [SocketAddress], dashboardAddresses: [SocketAddress] = [],
        token: MatterServerToken? = nil, grant: HubRights? = nil, threadBorderRouterAPIs: [String] = [],
        clock: any DriverClock = SystemClock()
    ) throws -> MatterServerAPI {
        guard let engine = hub.engine else {
            throw HomeError(.failedPrecondition, "the test's home is attached to another hub")
        }
        return try MatterServerAPI(
            engine: engine, listeningOn: addresses, dashboardAddresses: dashboardAddresses, token: token, grant: grant,
            threadBorderRouterAPIs: threadBorderRouterAPIs, clock: clock)
    }
}

extension MatterServerAPITests {
    /// check_node_update and update_node as Home Assistant's update entity calls them: the image of the hub's folder
    /// the light may take (update_source "local"), a version the hub does not hold refused as error 11, and the update
    /// started with null; the light then reports its new version as an attribute update.
    @Test func checkNodeUpdateOffersTheFoldersImageAndUpdateNodeInstallsIt() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let record = try #require(home.context.model.snapshot.devices[nodeID]?.first?.node)
            let image = try OTAImage(
                payload: Array(repeating: 0x5A, count: 10_000), vendorID: record.vendorID, productID: record.productID,
                softwareVersion: 2, softwareVersionString: "2.0", releaseNotesURL: "https://example.com/notes")
            let path = NSTemporaryDirectory() + "/swift-home-ws-update-\(nodeID).ota"
            try Data(image.encoded).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            _ = try await home.hub.perform(AddUpdateImage(path: path))

            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            client.sendText(
                #"{"message_id": "check", "command": "check_node_update", "args": {"node_id": \#(nodeID)}}"#)
            #expect(
                try await client.readText()
                    == #"{"message_id": "check", "result": {"vid":\#(record.vendorID),"pid":\#(record.productID),"software_version":2,"software_version_string":"2.0","firmware_information":null,"min_applicable_software_version":0,"max_applicable_software_version":1,"release_notes_url":"https://example.com/notes","update_source":"local"}}"#
            )
            client.sendText(
                #"{"message_id": "bad", "command": "update_node", "args": {"node_id": \#(nodeID), "software_version": "9.0"}}"#
            )
            #expect(
                try await client.readText()
                    == #"{"message_id": "bad", "error_code": 11, "details": "the hub holds no image of version \"9.0\" for this device"}"#
            )
            client.sendText(
                #"{"message_id": "install", "command": "update_node", "args": {"node_id": \#(nodeID), "software_version": 2}}"#
            )
            #expect(try await client.readText() == #"{"message_id": "install", "result": null}"#)
            var version: UInt32?
            for _ in 0..<500 where version != 2 {
                version = ReadUpdates.running(home.context.model.view(of: nodeID)?.cache).version
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(version == 2, "the light reports the version it was updated to")
        }
    }
}

extension MatterServerAPITests {
    /// Connections that never finish their request head (issue #40's 3,000 that stayed open): one peer holds at most
    /// 16 places and the rest are refused at once with 503; those 16 are answered 408 and closed once their 10 s are
    /// up. Meanwhile a WebSocket and a dashboard page opened before, and a client from another address, are served as
    /// usual.
    @Test func connectionsThatNeverSendTheirHeadAreRefusedOrTimedOutWhileClientsAreServed() async throws {
        try await withHome { home, _, _ in
            let clock = ManualClock()
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], clock: clock)
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            let established = try TestClient(address)
            await established.openWebSocket()
            _ = try await established.readText()  // server_info
            // A dashboard page's live socket, opened before too.
            let page = try TestClient(address)
            await page.openWebSocket(path: "/dashboard/socket", fields: "Origin: http://127.0.0.1\r\n")
            #expect(try await page.readText().hasPrefix(#"{"kind":"welcome""#))
            #expect(api.headsWaiting == 0, "a WebSocket is no longer waiting for its head")

            let stalled = try (0..<300).map { _ in try StalledConnection(address) }
            #expect(await eventually(within: .seconds(10)) { api.headsWaiting == 16 })
            let refused = await StalledConnection.ends(of: stalled, count: 284, within: .seconds(10))
            #expect(refused.count == 284)
            #expect(refused.values.allSatisfy { $0.starts(with: Array("HTTP/1.1 503 ".utf8)) })
            let waiting = stalled.filter { refused[$0.descriptor] == nil }
            // The 16 send half a head, and no more.
            for connection in waiting { connection.write("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
            #expect(await StalledConnection.ends(of: waiting, count: 1, within: .milliseconds(300)).isEmpty)

            // Another address has places of its own; the open WebSocket goes on.
            let other = try TestClient(address, from: IPv4Address(127 << 24 | 2))
            #expect(await other.openWebSocket().hasPrefix("HTTP/1.1 101 "))
            _ = try await other.readText()
            established.sendText(#"{"message_id": "1", "command": "get_nodes"}"#)
            #expect(try await established.readText() == #"{"message_id": "1", "result": []}"#)

            // A sign-in form whose body never comes is a stranger still: held to the same deadline.
            let form = try TestClient(address, from: IPv4Address(127 << 24 | 3))
            form.write(Array("POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\ntoken=".utf8))
            #expect(await eventually(within: .seconds(5)) { api.headsWaiting == 17 })

            clock.advance(by: .seconds(9))
            #expect(await StalledConnection.ends(of: waiting, count: 1, within: .milliseconds(300)).isEmpty)
            clock.advance(by: .seconds(1))
            let timedOut = await StalledConnection.ends(of: waiting, count: 16, within: .seconds(10))
            #expect(timedOut.count == 16)
            #expect(timedOut.values.allSatisfy { $0.starts(with: Array("HTTP/1.1 408 Request Timeout".utf8)) })
            #expect(String(decoding: await form.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 408 "))
            #expect(await eventually(within: .seconds(5)) { api.headsWaiting == 0 })

            // The clients whose heads were whole were never timed out.
            clock.advance(by: .seconds(60))
            established.sendText(#"{"message_id": "2", "command": "get_nodes"}"#)
            #expect(try await established.readText() == #"{"message_id": "2", "result": []}"#)
            other.sendText(#"{"message_id": "3", "command": "get_nodes"}"#)
            #expect(try await other.readText() == #"{"message_id": "3", "result": []}"#)
            page.sendText(#"{"id": 1, "action": "status"}"#)
            #expect(try await page.readText().hasPrefix(#"{"kind":"reply","id":1,"result":{"nodesOnline":0,"#))
            // The peer that held places may come back as a client.
            let back = try TestClient(address)
            #expect(await back.openWebSocket().hasPrefix("HTTP/1.1 101 "))
        }
    }
}

/// A connection that sends nothing unless told, checked for its end without blocking: hundreds at once, on one thread.
private final class StalledConnection: Sendable {
    let descriptor: Int32

    init(_ address: SocketAddress) throws {
        guard case .ipv4(let host, let port) = address else { throw POSIXError(.EAFNOSUPPORT) }
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var storage = sockaddr_in()
        storage.sin_family = sa_family_t(AF_INET)
        storage.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &storage.sin_addr) { $0.copyBytes(from: host.bytes) }
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    func write(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What each connection that the hub closed had been sent, by descriptor, once `count` have ended or `limit` has
    /// passed (bounded: no test waits for ever). Polls on a thread of its own, never one of the pool's the hub needs.
    static func ends(
        of connections: [StalledConnection], count: Int, within limit: Duration
    ) async -> [Int32: [UInt8]] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: pollEnds(of: connections, count: count, within: limit))
            }
        }
    }

    private static func pollEnds(
        of connections: [StalledConnection], count: Int, within limit: Duration
    ) -> [Int32: [UInt8]] {
        var received: [Int32: [UInt8]] = [:]
        var ended: [Int32: [UInt8]] = [:]
        let deadline = ContinuousClock.now + limit
        while ended.count < count, ContinuousClock.now < deadline {
            var polls = connections.filter { ended[$0.descriptor] == nil }.map {
                pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0)
            }
            guard poll(&polls, nfds_t(polls.count), 50) > 0 else { continue }
            for entry in polls where entry.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let read = chunk.withUnsafeMutableBytes {
                    recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if read > 0 {
                    received[entry.fd, default: []] += chunk[0..<read]
                } else {
                    ended[entry.fd] = received[entry.fd] ?? []
                }
            }
        }
        return ended
    }
}

extension MatterServerAPITests {
    /// Schema 13's upload (matterjs-server's `initiate_ota_upload` and `POST /ota-upload/<id>`): a ticket, the image's
    /// raw bytes posted to it, the MatterSoftwareVersion back and the image offered by check_node_update; a ticket is
    /// used once, expires, and only five are out at once; a corrupt image, a body past the limit, a malformed ID and
    /// another method are refused as matterjs-server refuses them, and no upload's file stays behind.
    @Test func anImageUploadedOverHTTPIsAddedAndOfferedAndBadUploadsAreRefused() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let record = try #require(home.context.model.snapshot.devices[nodeID]?.first?.node)
            let image = try OTAImage(
                payload: Array(repeating: 0xA5, count: 100_000), vendorID: record.vendorID,
                productID: record.productID, softwareVersion: 3, softwareVersionString: "3.0")
            let clock = ManualClock()
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], grant: .all, clock: clock)
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            let client = try TestClient(address)
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            var asked = 0
            func ticket() async throws -> [String: Any] {
                asked += 1
                client.sendText(#"{"message_id": "t\#(asked)", "command": "initiate_ota_upload"}"#)
                let text = try await client.readText()
                let frame = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                return frame["result"] as? [String: Any] ?? frame
            }
            func post(
                _ path: String, _ body: [UInt8], method: String = "POST", length: Int? = nil
            ) async throws
                -> (status: Int, body: String)
            {
                let poster = try TestClient(address)
                poster.write(
                    Array(
                        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length ?? body.count)\r\n\r\n"
                            .utf8) + body)
                let response = String(decoding: await poster.readToEnd(), as: UTF8.self)
                let status = Int(response.dropFirst(9).prefix(3)) ?? 0
                return (status, response.components(separatedBy: "\r\n\r\n").dropFirst().joined())
            }
            let uploads = try #require(home.hub.engine?.hub.directory.path) + "/ota-uploads"

            let first = try await ticket()
            let id = try #require(first["upload_id"] as? String)
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
            #expect(first["expires_in"] as? Int == 60 && first["max_size"] as? Int == 64 << 20)
            let stored = try await post("/ota-upload/\(id)", image.encoded)
            #expect(stored.status == 200)
            #expect(
                stored.body
                    == #"{"vid":\#(record.vendorID),"pid":\#(record.productID),"software_version":3,"software_version_string":"3.0","firmware_information":null,"min_applicable_software_version":0,"max_applicable_software_version":2,"release_notes_url":null,"update_source":"local"}"#
            )
            client.sendText(
                #"{"message_id": "check", "command": "check_node_update", "args": {"node_id": \#(nodeID)}}"#)
            #expect(try await client.readText().contains(#""software_version":3,"#))
            let reused = try await post("/ota-upload/\(id)", image.encoded)
            #expect(reused.status == 400 && reused.body.contains(#""error_code":101"#))
            #expect(reused.body.contains("unknown, expired or already used"))

            // A corrupt image: refused with what is wrong, nothing kept.
            let corruptID = try #require(try await ticket()["upload_id"] as? String)
            var corrupt = image.encoded
            corrupt[corrupt.count - 1] ^= 0xFF
            let refused = try await post("/ota-upload/\(corruptID)", corrupt)
            #expect(refused.status == 400 && refused.body.contains(#""error_code":101"#))
            #expect(refused.body.contains("digest"), "\(refused.body)")
            #expect(try await home.hub.perform(ReadUpdates()).images.map(\.version) == [3])

            // Too large, by its Content-Length: 413 before a byte is kept.
            let largeID = try #require(try await ticket()["upload_id"] as? String)
            #expect(try await post("/ota-upload/\(largeID)", [], length: (64 << 20) + 1).status == 413)
            #expect(try await post("/ota-upload/not-an-id", image.encoded).status == 404)
            #expect(try await post("/ota-upload/\(largeID)", [], method: "GET").status == 405)

            // Five places: the sixth ticket waits until one expires.
            for _ in 0..<5 { _ = try await ticket() }
            let sixth = try await ticket()
            #expect(sixth["error_code"] as? Int == 101)
            #expect((sixth["details"] as? String)?.contains("5 uploads") == true)
            clock.advance(by: .seconds(61))
            let late = try await ticket()
            let lateID = try #require(late["upload_id"] as? String)
            clock.advance(by: .seconds(61))
            let expired = try await post("/ota-upload/\(lateID)", image.encoded)
            #expect(expired.status == 400 && expired.body.contains("expired"))
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? []).isEmpty)
        }
    }
}

extension MatterServerAPITests {
    /// An upload ticket is spent only by the host it was given to, once; its file is the owner's alone, and goes when
    /// the upload is released.
    @Test func anUploadTicketIsTheAskingHostsAndItsFileIsPrivate() throws {
        let directory = NSTemporaryDirectory() + "/swift-home-uploads-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let uploads = OTAUploads(directory: directory, clock: ManualClock())
        let ticket = try uploads.reserve(for: [4, 192, 168, 1, 20])
        #expect(throws: MatterServerError(.otaUploadError, "upload ID \(ticket.id) was given to another client")) {
            try uploads.claim(ticket.id, from: [4, 192, 168, 1, 21])
        }
        let (path, descriptor) = try uploads.claim(ticket.id, from: [4, 192, 168, 1, 20])
        close(descriptor)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(directory, &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(throws: MatterServerError.self) { try uploads.claim(ticket.id, from: [4, 192, 168, 1, 20]) }
        uploads.release(ticket.id)
        #expect(stat(path, &status) != 0 && uploads.count == 0)
    }
}

extension MatterServerAPITests {
    /// Schema 12's get_fabric_label (the home's name: the label the hub gives its fabric), matterjs-server's
    /// get_loglevel and set_loglevel (its six levels on the hub's three; no log file), and WebRTC refused saying why.
    @Test func theFabricLabelAndTheLogLevelAreReadAndSetAndCamerasAreRefused() async throws {
        try await withHome { home, _, _ in
            let engine = try #require(home.hub.engine)
            // The log level is an administrator's to set (a loopback client without it is refused: the test below).
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], grant: [.administer])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            func ask(_ command: String, _ args: String = "{}") async throws -> String {
                client.sendText(#"{"message_id": "m", "command": "\#(command)", "args": \#(args)}"#)
                return try await client.readText()
            }
            let name = try #require(home.context.model.snapshot.structures.first?.name)
            #expect(try await ask("get_fabric_label") == #"{"message_id": "m", "result": {"fabric_label":"\#(name)"}}"#)
            #expect(
                try await ask("get_loglevel")
                    == #"{"message_id": "m", "result": {"console_loglevel":"info","file_loglevel":null}}"#)
            #expect(
                try await ask("set_loglevel", #"{"console_loglevel": "debug"}"#)
                    == #"{"message_id": "m", "result": {"console_loglevel":"debug","file_loglevel":null}}"#)
            #expect(engine.logLevel == .debug)
            #expect(
                try await ask("set_loglevel", #"{"console_loglevel": "warn"}"#).contains(#""console_loglevel":"info""#))
            #expect(engine.logLevel == .info)
            #expect(
                try await ask("set_loglevel", #"{"console_loglevel": "loud"}"#)
                    == #"{"message_id": "m", "error_code": 8, "details": "console_loglevel 'loud' is none of critical, error, warning, notice, info, debug"}"#
            )
            #expect(try await ask("set_loglevel", #"{"file_loglevel": "debug"}"#).contains(#""error_code": 8"#))
            #expect(engine.logLevel == .info, "a refused request changes nothing")
            #expect(
                try await ask("send_webrtc_provider_command", #"{"node_id": 1}"#)
                    == #"{"message_id": "m", "error_code": 9, "details": "camera live view (WebRTC) is not supported: this hub has no camera support"}"#
            )
        }
    }
}

extension MatterServerAPITests {
    /// Schema 12's named credential lists over the same store as `home network`: entries by ID, summaries without
    /// secrets (the default entries always listed), a blank password keeping the stored one for the same SSID only,
    /// removal, and server_info following the default entries alone.
    @Test func credentialsAreKeptByIDListedWithoutSecretsAndRemoved() async throws {
        try await withHome { home, _, _ in
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], grant: .all)
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            client.sendText(#"{"message_id": "listen", "command": "start_listening"}"#)
            _ = try await client.readText()
            func ask(_ command: String, _ args: String = "{}") async throws -> String {
                client.sendText(#"{"message_id": "m", "command": "\#(command)", "args": \#(args)}"#)
                return try await client.readText()
            }
            #expect(
                try await ask("get_all_credentials")
                    == #"{"message_id": "m", "result": {"wifi":[{"id":"default","ssid":""}],"thread":[{"id":"default","networkName":"","extPanId":""}]}}"#
            )
            #expect(
                try await ask(
                    "set_wifi_credentials", #"{"ssid": "Guest net", "credentials": "battery staple", "id": "Guest"}"#)
                    == #"{"message_id": "m", "result": null}"#)
            // A named entry is not the default one: server_info does not change, and no event is sent.
            let dataset = "0208111111112222222203044D657368"
            #expect(
                try await ask("set_thread_dataset", #"{"dataset": "\#(dataset)", "id": "Mesh"}"#)
                    == #"{"message_id": "m", "result": null}"#)
            #expect(
                try await ask("get_all_credentials")
                    == #"{"message_id": "m", "result": {"wifi":[{"id":"default","ssid":""},{"id":"Guest","ssid":"Guest net"}],"thread":[{"id":"default","networkName":"","extPanId":""},{"id":"Mesh","networkName":"Mesh","extPanId":"1111111122222222"}]}}"#
            )
            // A blank password keeps the stored one for the same SSID, and is refused for another.
            #expect(
                try await ask("set_wifi_credentials", #"{"ssid": "Guest net", "credentials": "", "id": "Guest"}"#)
                    == #"{"message_id": "m", "result": null}"#)
            let stored = try await home.hub.engine?.hub.store.networkCredentials(wifiID: "Guest").wifi
            #expect(stored == .wifi(ssid: Array("Guest net".utf8), credentials: Array("battery staple".utf8)))
            #expect(
                try await ask("set_wifi_credentials", #"{"ssid": "Other", "credentials": "", "id": "Guest"}"#)
                    .contains(
                        #""error_code": 8, "details": "no passphrase given, and none is stored under \"Guest\" for \"Other\""#
                    ))
            #expect(
                try await ask("set_thread_dataset", #"{"dataset": "", "id": "Mesh"}"#).contains(#""error_code": 8"#))
            #expect(
                try await ask("remove_wifi_credentials", #"{"id": "Guest"}"#) == #"{"message_id": "m", "result": null}"#
            )

            // The default entry: set, then removed; server_info says so each time, as an event too.
            #expect(
                try await ask("set_wifi_credentials", #"{"ssid": "Home", "credentials": "correct horse"}"#)
                    == #"{"message_id": "m", "result": null}"#)
            #expect(try await client.readText().contains(#""event": "server_info_updated""#))
            #expect(try await ask("server_info").contains(#""wifi_credentials_set": true"#))
            #expect(try await ask("remove_wifi_credentials") == #"{"message_id": "m", "result": null}"#)
            #expect(try await client.readText().contains(#""wifi_credentials_set": false"#))
            #expect(
                try await ask("get_all_credentials").hasPrefix(
                    #"{"message_id": "m", "result": {"wifi":[{"id":"default","ssid":""}],"thread""#))
        }
    }
}

extension MatterServerAPITests {
    /// A border router as get_thread_border_routers lists it: matterjs-server's BorderRouterEntry, binary TXT values in
    /// uppercase hex, addresses sorted; one without an extended address is left out.
    @Test func aBorderRouterIsListedAsMatterjsServerListsIt() throws {
        let router = ThreadBorderRouter(
            instanceName: "Kitchen BR", hostName: "kitchen.local", port: 49154,
            ipv4Addresses: [try #require(IPv4Address("192.168.1.9"))],
            ipv6Addresses: [try #require(IPv6Address("fd00::9"))],
            txt: [
                TXTEntry(key: "nn", value: "Home Mesh"),
                TXTEntry(key: "xp", bytes: [0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22]),
                TXTEntry(key: "xa", bytes: [0x0E, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0xCA, 0xFE]),
                TXTEntry(key: "vn", value: "Acme"), TXTEntry(key: "tv", value: "1.3.0"),
                TXTEntry(key: "sb", bytes: [0, 0, 1, 0xB1]),
            ])
        #expect(
            MatterServerClient.borderRouterEntry(router, seen: 1_700_000_000_000)?.rendered
                == #"{"extAddressHex":"0EAD00BEEF00CAFE","extendedPanIdHex":"1111111122222222","networkName":"Home Mesh","vendorName":"Acme","hostname":"kitchen.local.","addresses":["192.168.1.9","fd00::9"],"meshcopPort":49154,"threadVersion":"1.3.0","stateBitmapHex":"000001B1","sources":["meshcop"],"lastSeen":1700000000000}"#
        )
        let anonymous = ThreadBorderRouter(
            instanceName: "x", hostName: "x.local", port: 1, ipv4Addresses: [], ipv6Addresses: [],
            txt: [TXTEntry(key: "nn", value: "Mesh")])
        #expect(MatterServerClient.borderRouterEntry(anonymous, seen: 0) == nil)
    }
}

extension MatterServerAPITests {
    /// get_network_topology answers the graph and opts its client in: when the light goes offline, that client hears
    /// network_topology_updated with the node unavailable; a client that never asked hears nothing of it.
    @Test func theTopologyIsAnsweredAndItsChangesReachOnlyTheClientsThatAsked() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight(liveness: .seconds(2)) { home, device in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            var clients: [TestClient] = []
            for _ in 0..<2 {
                let client = try TestClient(address)
                await client.openWebSocket()
                _ = try await client.readText()  // server_info
                client.sendText(#"{"message_id": "listen", "command": "start_listening"}"#)
                _ = try await client.readText()
                clients.append(client)
            }
            let (asking, other) = (clients[0], clients[1])
            asking.sendText(#"{"message_id": "t", "command": "get_network_topology", "args": {}}"#)
            // Events may come first (the light's DefaultOTAProviders, written by the hub at first contact).
            var answer = try await asking.readText()
            while answer.hasPrefix(#"{"event""#) { answer = try await asking.readText() }
            #expect(answer.hasPrefix(#"{"message_id": "t", "result": {"collected_at":"#))
            #expect(
                answer.contains(
                    #"{"id":"\#(nodeID)","kind":"matter","network_type":"unknown","node_id":\#(nodeID),"available":true"#
                ))

            await device.shutdown()
            var event = ""
            while !event.contains("network_topology_updated") {
                event = try await asking.readText()  // node_updated (unavailable) comes first
            }
            #expect(event.contains(#""node_id":\#(nodeID),"available":false"#))
            // The other client's next frame answers its own command: no topology event was queued before it.
            other.sendText(#"{"message_id": "after", "command": "get_nodes"}"#)
            var frame = try await other.readText()
            while frame.hasPrefix(#"{"event": "node_updated""#) || frame.hasPrefix(#"{"event": "attribute_updated""#) {
                frame = try await other.readText()
            }
            #expect(frame.hasPrefix(#"{"message_id": "after", "result""#), "\(frame.prefix(80))")
        }
    }
}

extension MatterServerAPITests {
    /// matterjs-server's ICD commands on a sleepy contact sensor (awake for the whole test): the hub registered at
    /// first contact, get_icd_state says so, unregister_icd takes the registration off the device, register_icd puts
    /// it back (this hub is its only administrator), resync_icd answers null; a light has no ICD cluster.
    @Test func theICDCommandsAnswerTheHubsStandingAndChangeItOnTheDevice() async throws {
        let awake = IntermittentConnection(mode: .lit, idleModeSeconds: 600, activeModeMilliseconds: 120_000)
        try await DeviceTypeControllerLiveTests.withLiveDevice(
            kind: .contactSensor, simulation: Simulation(interval: .seconds(100_000)), intermittent: awake
        ) { home, device, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            #expect(await eventually(within: .seconds(10)) { await device.icdRegistrations.count == 1 })
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info

            func ask(_ command: String, _ args: String) async throws -> String {
                client.sendText(#"{"message_id": "\#(command)", "command": "\#(command)", "args": \#(args)}"#)
                return try await client.readText()
            }
            // The hub registers once the node is online (the device hears it before the hub stores it).
            var state = try await ask("get_icd_state", #"{"node_id": \#(nodeID)}"#)
            for _ in 0..<100 where !state.contains(#""registered":true"#) {
                try await Task.sleep(for: .milliseconds(50))
                state = try await ask("get_icd_state", #"{"node_id": \#(nodeID)}"#)
            }
            #expect(
                state.hasPrefix(
                    #"{"message_id": "get_icd_state", "result": {"supported":true,"lit_supported":true,"registered":true,"operating_mode":"LIT","awake":true,"available":true,"next_expected_checkin":"#
                ), "\(state)")

            let unregistered = try await ask("unregister_icd", #"{"node_id": \#(nodeID)}"#)
            #expect(unregistered.contains(#""registered":false"#), "\(unregistered)")
            #expect(await device.icdRegistrations.isEmpty)

            let registered = try await ask("register_icd", #"{"node_id": \#(nodeID), "allow_multi_admin": false}"#)
            #expect(registered.contains(#""registered":true"#), "\(registered)")
            #expect(await device.icdRegistrations.count == 1)

            #expect(
                try await ask("resync_icd", #"{"node_id": \#(nodeID)}"#)
                    == #"{"message_id": "resync_icd", "result": null}"#)
            let unknown = try await ask("get_icd_state", #"{"node_id": 424242}"#)
            #expect(unknown.contains(#""error_code": 5"#), "\(unknown)")
        }
    }

    @Test func aNodeWithoutTheICDClusterIsNotSupported() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            client.sendText(#"{"message_id": "s", "command": "get_icd_state", "args": {"node_id": \#(nodeID)}}"#)
            #expect(
                try await client.readText()
                    == #"{"message_id": "s", "result": {"supported":false,"lit_supported":false,"registered":false,"operating_mode":null,"awake":null,"available":null,"next_expected_checkin":null}}"#
            )
            client.sendText(#"{"message_id": "r", "command": "register_icd", "args": {"node_id": \#(nodeID)}}"#)
            let refused = try await client.readText()
            #expect(refused.contains("is not a Long Idle Time device"), "\(refused)")
        }
    }
}

extension MatterServerAPITests {
    /// get_thread_diagnostics for a network no REST API answers for (a dataset the hub holds): said to have no source,
    /// as matterjs-server says it of a network with no transport; the form without ext_pan_id answers the cache
    /// and sends the refresh as thread_diagnostics_updated, only to a client that made a Thread request.
    @Test func threadDiagnosticsSayWhenThereIsNoSourceAndReachOnlyClientsThatAsked() async throws {
        try await withHome { home, _, _ in
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], grant: .all)
            defer { api.stop() }
            var clients: [TestClient] = []
            for _ in 0..<2 {
                let client = try TestClient(try #require(api.addresses.first))
                await client.openWebSocket()
                _ = try await client.readText()  // server_info
                client.sendText(#"{"message_id": "listen", "command": "start_listening"}"#)
                _ = try await client.readText()
                clients.append(client)
            }
            let (asking, other) = (clients[0], clients[1])
            func ask(_ args: String) async throws -> String {
                asking.sendText(#"{"message_id": "d", "command": "get_thread_diagnostics", "args": \#(args)}"#)
                return try await asking.readText()
            }
            // Extended PAN ID 1111111122222222, name "Mesh".
            asking.sendText(
                #"{"message_id": "s", "command": "set_thread_dataset", "args": {"dataset": "0208111111112222222203044D657368", "id": "Mesh"}}"#
            )
            #expect(try await asking.readText() == #"{"message_id": "s", "result": null}"#)

            #expect(try await ask(#"{"ext_pan_id": "0000000000000001"}"#) == #"{"message_id": "d", "result": null}"#)
            let one = try await ask(#"{"ext_pan_id": "1111111122222222"}"#)
            #expect(
                one.hasPrefix(
                    #"{"message_id": "d", "result": {"extPanIdHex":"1111111122222222","networkName":"Mesh","collectedAt":"#
                ))
            #expect(one.hasSuffix(#","source":"none","nodes":[],"partialReason":"no_source"}}"#))
            #expect(try await ask(#"{"ext_pan_id": "xyz"}"#).contains(#""error_code": 8"#))

            // The last collection (the one just asked for) at once, then the refresh as an event.
            #expect(
                try await ask("{}").hasPrefix(#"{"message_id": "d", "result": [{"extPanIdHex":"1111111122222222""#))
            let event = try await asking.readText()
            #expect(
                event.hasPrefix(#"{"event": "thread_diagnostics_updated", "data": {"extPanIdHex":"1111111122222222""#))
            #expect(event.hasSuffix(#","source":"none","nodes":[],"partialReason":"no_source"}}"#))
            // The other client never asked: its next frame answers its own command.
            other.sendText(#"{"message_id": "after", "command": "get_fabric_label"}"#)
            #expect(try await other.readText().hasPrefix(#"{"message_id": "after""#))
        }
    }
}

extension MatterServerAPITests {
    /// get_thread_diagnostics from a border router's REST API (one that answers as ot-br-posix's openapi text says):
    /// the network its own device item names, each device's diagnostics as matterjs-server's ThreadDiagnosticsNode,
    /// complete; asked again within the hour from the last collection, forced afresh; an API named wrongly refused.
    @Test func threadDiagnosticsAreCollectedFromABorderRoutersRESTAPI() async throws {
        let router = try TestBorderRouterREST(
            extendedPANID: "a7b7d5d07d9ec2fa", networkName: "OpenThread-1234",
            devices: [
                .init(
                    extendedAddress: "96518e5497d5b9f3",
                    diagnostic: #"""
                        {"extAddress": "96518e5497d5b9f3", "rloc16": "0x5000",
                         "mode": {"rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true},
                         "route": {"idSequence": 7, "routeData": [{"routeId": 20, "linkQualityOut": 3,
                           "linkQualityIn": 3, "routeCost": 1}]},
                         "ipv6Addresses": ["fd11:22::1"], "eui": "9035eafffef02ca9"}
                        """#),
                .init(
                    extendedAddress: "2a55d952bc7b4008",
                    diagnostic: #"{"extAddress": "2a55d952bc7b4008", "rloc16": "0x5001", "batteryLevel": 82}"#),
            ])
        try await withHome { home, _, _ in
            #expect(throws: HomeError.self) {
                try home.serveMatterServerAPI(
                    listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)],
                    threadBorderRouterAPIs: ["http://otbr:8081/api?x=1"])
            }
            let api = try home.serveMatterServerAPI(
                listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], threadBorderRouterAPIs: [router.base])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            func ask(_ args: String) async throws -> String {
                client.sendText(#"{"message_id": "d", "command": "get_thread_diagnostics", "args": \#(args)}"#)
                return try await client.readText()
            }
            let batch = try await ask(#"{"ext_pan_id": "a7b7d5d07d9ec2fa"}"#)
            #expect(batch.contains(#""extPanIdHex":"A7B7D5D07D9EC2FA","networkName":"OpenThread-1234""#))
            #expect(batch.contains(#""source":"otbr-rest""#) && !batch.contains("partialReason"), "complete")
            #expect(
                batch.contains(
                    #"{"extMacAddress":"96518E5497D5B9F3","rloc16":20480,"mode":{"rxOnWhenIdle":true,"ftd":true,"fullNetworkData":true},"route64":{"idSequence":7,"entries":[{"routerId":20,"linkQualityIn":3,"linkQualityOut":3,"routeCost":1}]},"ipv6Addresses":["FD110022000000000000000000000001"],"eui64":"9035EAFFFEF02CA9"}"#
                ))
            #expect(batch.contains(#"{"extMacAddress":"2A55D952BC7B4008","rloc16":20481,"batteryLevel":82}"#))
            #expect(router.posted.count == 2, "the refresh and the diagnostic tasks")

            _ = try await ask(#"{"ext_pan_id": "A7B7D5D07D9EC2FA"}"#)
            #expect(router.posted.count == 2, "within the hour: the last collection")
            _ = try await ask(#"{"ext_pan_id": "A7B7D5D07D9EC2FA", "force": true}"#)
            #expect(router.posted.count == 4, "forced: collected afresh")
        }
    }
}

extension MatterServerAPITests {
    /// The topology's refresh reads the network diagnostics afresh: a light with a Wi-Fi radio (its Wi-Fi Network
    /// Diagnostics served) is read and answers; once it is offline it is not asked; get_network_topology with
    /// refresh answers the graph after the reads.
    @Test func theTopologysRefreshReadsTheReachableNodesDiagnosticsAfresh() async throws {
        let radio = SimulatedRadio.wifi([.init(ssid: "Home", passphrase: "correct horse")])
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .light, liveness: .seconds(2), radio: radio) {
            home, device, _ in
            try await home.hub.followEveryNode()
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let online = await eventually(within: .seconds(10)) {
                if case .online = home.context.model.snapshot.views[nodeID]?.state { return true }
                return false
            }
            #expect(online)
            let read = try await home.hub.perform(RefreshNetworkDiagnostics())
            #expect(read.refreshed == [nodeID] && read.unanswered.isEmpty)

            let api = try home.serveMatterServerAPI(listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket()
            _ = try await client.readText()  // server_info
            client.sendText(#"{"message_id": "t", "command": "get_network_topology", "args": {"refresh": true}}"#)
            #expect(try await client.readText().hasPrefix(#"{"message_id": "t", "result": {"collected_at":"#))

            await device.shutdown()
            let offline = await eventually(within: .seconds(15)) {
                if case .offline = home.context.model.snapshot.views[nodeID]?.state { return true }
                return false
            }
            #expect(offline)
            let none = try await home.hub.perform(RefreshNetworkDiagnostics())
            #expect(none.refreshed.isEmpty && none.unanswered.isEmpty, "an offline node is not asked")
        }
    }
}
