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

// The Matter-server API's commands about the server itself: its info, listening, diagnostics, labels, vendor names,
// imported test nodes, and what needs what the hub has not (an OTA source, Bluetooth).
extension MatterServerClient {
    func answerServerInfo(_ id: String) {
        send(Self.reply(id, peers.info.json))
    }

    func diagnostics(_ id: String) {
        let model = engine.model
        let snapshot = model.snapshot
        let events = snapshot.recentEvents.flatMap { nodeID, events in events.map { (nodeID, $0) } }
            .sorted { $0.1.number < $1.1.number }.suffix(25).map { Self.nodeEvent($0.0, $0.1) }
        send(
            Self.reply(
                id,
                #"{"info": \#(peers.info.json), "nodes": \#(JSONValue.array(MatterServerNodes.all(snapshot) + peers.testNodes.all).rendered), "events": \#(JSONValue.array(Array(events)).rendered)}"#
            ))
    }

    /// `set_wifi_credentials` and `set_thread_dataset`: kept by the hub for the devices it brings onto a network (as
    /// `home network` keeps them), then `server_info_updated` to every listening client. Bad credentials are error 8.
    func setNetworkCredentials(_ id: String, _ operation: SetNetworkCredentials) {
        work { [self] in
            do throws(HomeError) {
                _ = try await engine.perform(operation, caller: caller)
            } catch {
                return send(
                    Self.error(id, error.code == .invalidArgument ? .invalidArguments : .unknown, error.message))
            }
            peers.info.credentialsSet(
                wifi: operation.wifiSSID != nil ? true : nil, thread: operation.threadDataset != nil ? true : nil)
            send(Self.reply(id, "null"))
            peers.broadcast("{\"event\": \"server_info_updated\", \"data\": \(peers.info.json)}")
        }
    }

    func importTestNode(_ id: String, _ args: ImportTestNodeArguments) {
        let model = engine.model
        do throws(MatterServerTestNodes.Invalid) {
            let imported = try peers.testNodes.importNodes(
                from: args.dump, besides: Set(model.snapshot.devices.keys))
            send(Self.reply(id, "null"))
            for node in imported { peers.broadcast(Self.event("node_added", node)) }
        } catch {
            send(Self.error(id, .invalidArguments, "\(error)"))
        }
    }

    /// The vendors the hub knows by name, as `{"<vendor ID>": name}` (only those asked for, with `filter_vendors`):
    /// the ones its devices name themselves (Basic Information's VendorID and VendorName). This hub has no copy of
    /// the CSA's vendor list (the DCL) to name the others.
    func vendorNames(_ id: String, _ filter: [UInt64]?) {
        let wanted = filter.map(Set.init)
        var names: [UInt64: String] = [:]
        for view in engine.model.snapshot.views.values {
            guard let vendorID = try? view.cache.value(BasicInformationCluster.Attributes.vendorID, endpoint: 0),
                let name = try? view.cache.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0),
                wanted?.contains(UInt64(vendorID)) ?? true
            else { continue }
            names[UInt64(vendorID)] = name
        }
        let result = JSONValue.object(names.sorted { $0.key < $1.key }.map { (String($0.key), .string($0.value)) })
        send(Self.reply(id, result.rendered))
    }
}
