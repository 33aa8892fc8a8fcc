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

    /// `set_wifi_credentials` and `set_thread_dataset`: kept by the hub, under their ID (schema 12; "default" without
    /// one), for the devices it brings onto a network (as `home network` keeps them); when the default entry changed,
    /// `server_info_updated` to every listening client. Bad credentials are error 8.
    func setNetworkCredentials(_ id: String, _ operation: SetNetworkCredentials) {
        work { [self] in
            do throws(HomeError) {
                _ = try await engine.perform(operation, caller: caller)
            } catch {
                return send(
                    Self.error(id, error.code == .invalidArgument ? .invalidArguments : .unknown, error.message))
            }
            send(Self.reply(id, "null"))
            if operation.id == HubStore.defaultCredentialsID {
                peers.info.credentialsSet(
                    wifi: operation.wifiSSID != nil ? true : nil, thread: operation.threadDataset != nil ? true : nil)
                peers.broadcastServerInfo()
            }
        }
    }

    /// `get_all_credentials` (schema 12): what may be shown of every entry, never a secret; the "default" entries are
    /// always there (empty when unset, as server_info's `*_credentials_set` says).
    func allCredentials(_ id: String) {
        work { [self] in
            let held: ReadNetworkCredentials.Reply
            do throws(HomeError) {
                held = try await engine.perform(ReadNetworkCredentials(), caller: caller)
            } catch {
                return send(Self.error(id, .unknown, error.message))
            }
            func entries(_ kind: NetworkCredentials.Kind) -> [ReadNetworkCredentials.Entry] {
                let all = held.entries.filter { $0.kind == kind }
                let fallback = ReadNetworkCredentials.Entry(
                    kind: kind, id: HubStore.defaultCredentialsID, shownName: "", networkName: nil)
                return [all.first { $0.id == HubStore.defaultCredentialsID } ?? fallback]
                    + all.filter { $0.id != HubStore.defaultCredentialsID }
            }
            let wifi = entries(.wifi).map { entry in
                JSONValue.object([("id", .string(entry.id)), ("ssid", .string(entry.shownName))])
            }
            let thread = entries(.thread).map { entry in
                JSONValue.object([
                    ("id", .string(entry.id)), ("networkName", .string(entry.networkName ?? "")),
                    ("extPanId", .string(entry.shownName)),
                ])
            }
            send(Self.reply(id, JSONValue.object([("wifi", .array(wifi)), ("thread", .array(thread))]).rendered))
        }
    }

    /// `remove_wifi_credentials` and `remove_thread_dataset` (schema 12): the entry goes, its secret with it; the
    /// "default" one (no ID) is cleared, and server_info says so.
    func removeCredentials(_ id: String, _ kind: NetworkCredentials.Kind, _ entry: String?) {
        let entryID = entry ?? HubStore.defaultCredentialsID
        work { [self] in
            do throws(HomeError) {
                _ = try await engine.perform(RemoveNetworkCredentials(kind, id: entryID), caller: caller)
            } catch {
                return send(Self.error(id, .unknown, error.message))
            }
            send(Self.reply(id, "null"))
            if entryID == HubStore.defaultCredentialsID {
                peers.info.credentialsSet(wifi: kind == .wifi ? false : nil, thread: kind == .thread ? false : nil)
                peers.broadcastServerInfo()
            }
        }
    }

    /// Test nodes reach every listening client as node_added: who adds them must hold the devices right.
    func importTestNode(_ id: String, _ args: ImportTestNodeArguments) {
        let model = engine.model
        work { [self] in
            do throws(HomeError) {
                try await engine.check(.right(.devices, structureID: nil), of: "import test nodes", for: caller)
            } catch {
                return send(Self.error(id, .unknown, error.message))
            }
            do throws(MatterServerTestNodes.Invalid) {
                let imported = try peers.testNodes.importNodes(
                    from: args.dump, besides: Set(model.snapshot.devices.keys))
                send(Self.reply(id, "null"))
                for node in imported { peers.broadcast(Self.event("node_added", node)) }
            } catch {
                send(Self.error(id, .invalidArguments, "\(error)"))
            }
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

    /// `get_fabric_label` (schema 12): the label the hub gives its fabric on every node, the home's name. The label is
    /// pinned to it, as matterjs-server's `--default-fabric-label` pins one: `set_default_fabric_label` is accepted
    /// and changes nothing (the home's name is the Home API's own).
    func fabricLabel(_ id: String) {
        let label = engine.model.snapshot.structures.first.map { FabricLabel.of(home: $0.name) }
        send(Self.reply(id, JSONValue.object([("fabric_label", label.map(JSONValue.string) ?? .null)]).rendered))
    }

    /// `get_loglevel` (matterjs-server's): the serving hub's level by matterjs-server's names; it writes no log file.
    func logLevels(_ id: String) {
        send(
            Self.reply(
                id,
                JSONValue.object([
                    ("console_loglevel", .string(engine.logLevel.rawValue)), ("file_loglevel", .null),
                ]).rendered))
    }

    /// `set_loglevel`: the hub's level from now until it restarts. matterjs-server's six levels (and its aliases)
    /// fall on the hub's three: critical and error say failures, warning, notice and info also state changes, debug
    /// everything. A level for a log file is refused: the hub writes none.
    func setLogLevel(_ id: String, _ args: LogLevelArguments) {
        if args.file != nil {
            return send(Self.error(id, .invalidArguments, "this hub writes no log file: only console_loglevel applies"))
        }
        if let name = args.console {
            guard let level = Self.hubLogLevel(name) else {
                return send(
                    Self.error(
                        id, .invalidArguments,
                        "console_loglevel '\(name.prefix(20))' is none of critical, error, warning, notice, info, debug"
                    ))
            }
            // What the hub's log says is its administrator's to choose (a quiet log hides what a client does next).
            return work { [self] in
                do throws(HomeError) {
                    try await engine.check(
                        .right(.administer, structureID: nil), of: "set the hub's log level", for: caller)
                } catch {
                    return send(Self.error(id, .unknown, error.message))
                }
                engine.logLevel = level
                logLevels(id)
            }
        }
        logLevels(id)
    }

    static func hubLogLevel(_ name: String) -> HubLogLevel? {
        switch name.lowercased() {
        case "critical", "fatal", "error": .error
        case "warning", "warn", "notice", "info": .info
        case "debug": .debug
        default: nil
        }
    }
}
