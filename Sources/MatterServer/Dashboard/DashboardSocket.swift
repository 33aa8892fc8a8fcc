import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction
import MatterOnboarding
import Synchronization

/// The dashboard page's one live connection (a WebSocket at `/dashboard/socket`, JSON text frames).
///
/// The hub sends `{"kind": "welcome", "signedIn": …, "home": …}` first (`DashboardView.home`), then, as the model
/// changes, `{"kind": "devices", "devices": [...]}` with each device whose view moved, the whole `home` again when
/// rooms, structures or the set of devices changed, and `{"kind": "event", "device", "event"}` for each event a
/// device reports. The page sends actions, `{"id": n, "action": "toggle", "device": "…", …}`; each is answered by
/// `{"kind": "reply", "id": n, "result": …}` or `{"kind": "failure", "id": n, "message": …}`, with
/// `{"kind": "progress", "id": n, "text": …}` lines before a commissioning's reply. Every action is a hub operation,
/// carried out as every other front door carries it out, as the hub's own user (a signed-in browser holds the token).
final class DashboardSocket: Sendable {
    private let engine: HubEngine
    /// The session the page signed in with (nil when no sign-in is asked): each action checks it still holds.
    private let session: String?
    private let access: DashboardAccess
    private let send: @Sendable (String) -> Void
    /// What works for the page: the follower of the model and the actions at work, by a number of the hub's own
    /// (a page may reuse its ids).
    private struct Work {
        var follower: Task<Void, Never>?
        var actions: [UInt64: Task<Void, Never>] = [:]
        var serial: UInt64 = 0
        var closed = false
    }

    private let work = Mutex(Work())

    /// Who its actions act as: the door's clients (`MatterServerAPI.clientCaller`), never the hub's own user.
    private let caller: HubCaller

    init(
        engine: HubEngine, caller: HubCaller, session: String?, access: DashboardAccess,
        send: @escaping @Sendable (String) -> Void
    ) {
        self.engine = engine
        self.caller = caller
        self.session = session
        self.access = access
        self.send = send
    }

    /// The welcome, then the model's changes from there on.
    func start() {
        let model = engine.model
        // Listening before the welcome is built: a change in between is sent after it, never lost.
        let changes = model.changes(.all)
        let welcome = JSONValue.object([
            ("kind", .string("welcome")), ("signedIn", .bool(session != nil)),
            ("nameCodePoints", .unsigned(UInt64(HomeName.maximumCodePoints))),
            ("home", DashboardView.home(model.snapshot)),
        ]).rendered
        send(welcome)
        let task = Task { [weak self] in
            var sent: [String: JSONValue] = [:]
            for await update in changes {
                guard let self else { return }
                self.follow(update, model.snapshot, &sent)
            }
        }
        work.withLock { work in
            if work.closed { task.cancel() } else { work.follower = task }
        }
    }

    /// The connection is gone (called out of its lock): the model is no longer followed, and every action at work
    /// is cancelled.
    func closed() {
        let tasks = work.withLock { work -> [Task<Void, Never>] in
            defer { work = Work(closed: true) }
            return Array(work.actions.values) + [work.follower].compactMap { $0 }
        }
        for task in tasks { task.cancel() }
    }

    private func follow(_ update: HomeModel.Update, _ snapshot: HomeModel.Snapshot, _ sent: inout [String: JSONValue]) {
        guard case .changes(let changes) = update else {
            return send(JSONValue.object([("kind", .string("home")), ("home", DashboardView.home(snapshot))]).rendered)
        }
        var nodes: Set<UInt64> = []
        var reshaped = false
        for change in changes {
            switch change {
            case .structureAdded, .structureRenamed, .structureRemoved, .roomAdded, .roomRenamed, .roomRemoved,
                .deviceAdded, .deviceRemoved, .deviceMoved, .typesChanged:
                reshaped = true
            case .event(let nodeID, let event):
                let device = DeviceID(nodeID: nodeID, endpoint: event.endpoint)
                send(
                    JSONValue.object([
                        ("kind", .string("event")), ("device", .string(device.description)),
                        ("event", DashboardView.event(event)),
                    ]).rendered)
            default:
                if let nodeID = change.nodeID { nodes.insert(nodeID) }
            }
        }
        if reshaped {
            sent = [:]
            return send(JSONValue.object([("kind", .string("home")), ("home", DashboardView.home(snapshot))]).rendered)
        }
        // Only the devices whose view moved: a sensor's report does not redraw its neighbours.
        var moved: [JSONValue] = []
        for device in DashboardView.devices(of: Array(nodes), in: snapshot) {
            guard case .object(let fields) = device, case .string(let id)? = fields.first(where: { $0.0 == "id" })?.1
            else { continue }
            if sent[id] != device {
                sent[id] = device
                moved.append(device)
            }
        }
        if !moved.isEmpty {
            send(JSONValue.object([("kind", .string("devices")), ("devices", .array(moved))]).rendered)
        }
    }

    // MARK: Actions

    /// One action from the page. Called under its connection's lock: everything it sends is sent from a task.
    func received(_ text: String) {
        let send = send
        guard let action = try? JSONDecoder().decode(DashboardAction.self, from: Data(text.utf8)) else {
            Task { send(Self.failure(0, "an action is a JSON object with a number id and an action name")) }
            return
        }
        work.withLock { state in
            guard !state.closed else { return }
            guard state.actions.count < DashboardLimits.actionsAtOnce else {
                let id = action.id
                Task { send(Self.failure(id, "Too many actions at work at once: wait for their answers.")) }
                return
            }
            state.serial += 1
            let serial = state.serial
            // Made under the lock its end takes too: an action that ends at once still finds itself to remove.
            state.actions[serial] = Task { [weak self] in
                guard let self else { return }
                let answer: String
                do throws(HomeError) {
                    // A session signed out (or evicted, or expired) since the page opened acts no more.
                    guard access.stillSignedIn(session) else {
                        throw HomeError(.unauthenticated, "This browser is signed out: sign in again.")
                    }
                    answer = Self.reply(action.id, try await perform(action))
                } catch {
                    answer = Self.failure(action.id, error.message)
                }
                send(answer)
                _ = self.work.withLock { $0.actions.removeValue(forKey: serial) }
            }
        }
    }

    private func perform(_ action: DashboardAction) async throws(HomeError) -> JSONValue {
        switch action.action {
        case "toggle":
            let device = try device(action)
            _ = try await engine.perform(
                ToggleOnOff(nodeID: device.id.nodeID, endpoint: device.id.endpoint), caller: caller)
            return .null
        case "level":
            let level = try action.number("level", in: 0...254)
            try await invoke(
                "MoveToLevelWithOnOff", of: LevelControlCluster.id, on: try device(action),
                [
                    "level": .unsigned(UInt64(level)), "transitionTime": .unsigned(0), "optionsMask": .unsigned(0),
                    "optionsOverride": .unsigned(0),
                ])
            return .null
        case "colorTemperature":
            let mireds = try action.number("mireds", in: 1...65279)
            try await invoke(
                "MoveToColorTemperature", of: ColorControlCluster.id, on: try device(action),
                [
                    "colorTemperatureMireds": .unsigned(UInt64(mireds)), "transitionTime": .unsigned(0),
                    "optionsMask": .unsigned(0), "optionsOverride": .unsigned(0),
                ])
            return .null
        case "rename":
            let device = try device(action)
            guard let name = action.name else { throw HomeError(.invalidArgument, "rename needs a name") }
            let renamed = try await engine.perform(
                RenameDevice(nodeID: device.id.nodeID, parts: [device.id], multipart: false, name: name), caller: caller
            )
            return .string(renamed)
        case "move":
            let device = try device(action)
            guard let room = action.room else { throw HomeError(.invalidArgument, "move needs a room") }
            _ = try await engine.perform(MoveDevices([device.id], roomID: room), caller: caller)
            return .null
        case "createRoom":
            guard let name = action.name else { throw HomeError(.invalidArgument, "a room needs a name") }
            let room = try await engine.perform(CreateRoom(name: name, structureID: nil), caller: caller)
            return .string(room.id)
        case "remove":
            let device = try device(action)
            let outcome = try await engine.perform(
                Decommission(nodeID: device.id.nodeID), caller: caller)
            return outcome.fabricRemovalFailure.map(JSONValue.string) ?? .null
        case "share":
            let window = try await engine.perform(
                OpenCommissioningWindow(try shared(action), seconds: DashboardLimits.shareSeconds), caller: caller)
            return .object([
                ("qrCode", .string(window.qrCode)), ("manualCode", .string(window.manualCode)),
                ("expiresAt", .number(window.expiresAt.timeIntervalSince1970)),
                ("qrSVG", .string(QRCode.svg(window.qrCode))),
            ])
        case "fabrics":
            let fabrics = try await engine.perform(ReadFabrics(try shared(action)), caller: caller)
            return .array(
                fabrics.map {
                    .object([
                        ("index", .unsigned(UInt64($0.index))), ("label", .string($0.label)),
                        ("vendor", .string($0.vendorName ?? String(format: "0x%04X", $0.vendorID))),
                        ("ours", .bool($0.isThisHub)),
                    ])
                })
        case "removeFabric":
            let index = try action.number("index", in: 1...254)
            _ = try await engine.perform(RemoveFabric(try shared(action), index: UInt8(index)), caller: caller)
            return .null
        case "commission":
            return try await commission(action)
        case "networks":
            let held = try await engine.perform(ReadNetworkCredentials(), caller: caller)
            return .array(
                held.entries.map {
                    .object([
                        ("kind", .string($0.kind == .wifi ? "wifi" : "thread")), ("id", .string($0.id)),
                        ("name", .string($0.networkName ?? $0.shownName)),
                    ])
                })
        case "firmware":
            let record = try device(action)
            let updates = try await engine.perform(ReadUpdates(), caller: caller)
            guard let node = updates.nodes.first(where: { $0.nodeID == record.id.nodeID }) else { return .null }
            return .object([
                ("running", node.versionString.map(JSONValue.string) ?? .null),
                (
                    "available",
                    node.available.map { image in
                        .object([
                            ("version", .unsigned(UInt64(image.version))),
                            ("versionString", .string(image.versionString)),
                            ("releaseNotes", image.releaseNotesURL.map(JSONValue.string) ?? .null),
                        ])
                    } ?? .null
                ),
            ])
        case "update":
            let record = try device(action)
            let id = action.id
            let done = try await engine.perform(UpdateDevice(nodeID: record.id.nodeID), caller: caller) {
                [send] progress in
                let text =
                    switch progress {
                    case .transfer(let percent, let rate): "\(percent) % (\(Int(rate / 1024)) KiB/s)"
                    case .finished(let step, _): step
                    case .note(let note): note
                    }
                send(
                    JSONValue.object([
                        ("kind", .string("progress")), ("id", .signed(Int64(id))), ("text", .string(text)),
                    ])
                    .rendered)
            }
            return .string(done.versionString)
        case "commands":
            let record = try device(action)
            let cache = engine.model.snapshot.views[record.id.nodeID]?.cache ?? AttributeCache()
            return DashboardCommands.describe(cache, endpoint: record.id.endpoint)
        case "invoke":
            let record = try device(action)
            guard let number = action.values?["cluster"], let clusterID = UInt32(exactly: number),
                let command = action.command
            else { throw HomeError(.invalidArgument, "invoke needs a cluster (its ID) and a command") }
            let response = try await invoke(
                command, of: ClusterID(rawValue: clusterID), on: record,
                action.fields ?? [:], knownValuesOnly: true)
            return response ?? .null
        case "node":
            guard let text = action.node, text.utf8.count == 16, text.allSatisfy(\.isHexDigit),
                let nodeID = UInt64(text, radix: 16),
                let node = MatterServerNodes.node(nodeID, engine.model.snapshot)
            else { throw HomeError(.notFound, "no node \(action.node ?? "") in the home") }
            return node
        case "status":
            let status = try await engine.perform(ReadHubStatus(), caller: caller)
            return .object([
                ("nodesOnline", .signed(Int64(status.nodesOnline))),
                ("nodesOffline", .signed(Int64(status.nodesOffline))),
                ("nodesUnknown", .signed(Int64(status.nodesUnknown))), ("clients", .signed(Int64(status.clients))),
                ("startedAt", .number(status.startedAt)), ("pid", .signed(Int64(status.pid))),
            ])
        default:
            throw HomeError(.invalidArgument, "the dashboard has no action \"\(action.action.prefix(40))\"")
        }
    }

    private func device(_ action: DashboardAction) throws(HomeError) -> DeviceRecord {
        guard let text = action.device, let id = DeviceID(text),
            let record = engine.model.snapshot.devices[id.nodeID]?.first(where: { $0.id == id })
        else { throw HomeError(.notFound, "no device \(action.device ?? "") in the home") }
        return record
    }

    private func shared(_ action: DashboardAction) throws(HomeError) -> SharedDevice {
        let record = try device(action)
        return SharedDevice(
            nodeID: record.id.nodeID, vendorID: record.node.vendorID, productID: record.node.productID,
            label: "\(record.name) (\(record.id))")
    }

    /// The command named `name` of the cluster, its fields checked against the data model; the response's fields by
    /// name, or nil for a status-only answer.
    @discardableResult
    private func invoke(
        _ name: String, of clusterID: ClusterID, on record: DeviceRecord, _ payload: [String: UntypedJSON],
        knownValuesOnly: Bool = false
    ) async throws(HomeError) -> JSONValue? {
        guard let cluster = ClusterRegistry.standard[clusterID] else {
            throw HomeError(.invalidArgument, "the data model has no cluster \(clusterID)")
        }
        let named: NamedCommand
        let invocation: InvokeCommand
        do throws(MatterServerPayload.Invalid) {
            named = try NamedCommand(name, of: cluster)
            invocation = try named.invocation(
                nodeID: record.id.nodeID, endpoint: record.id.endpoint, payload: payload,
                knownValuesOnly: knownValuesOnly)
        } catch {
            throw HomeError(.invalidArgument, error.description)
        }
        let response = try await engine.perform(invocation, caller: caller)
        return named.response(command: response.command, fields: response.fields)
    }

    /// A device from the code on its box (the manual code or the QR code's text), named and put in a room, on the
    /// hub's network: each step sent as it is done.
    private func commission(_ action: DashboardAction) async throws(HomeError) -> JSONValue {
        guard let code = action.code?.trimmingCharacters(in: .whitespacesAndNewlines), !code.isEmpty else {
            throw HomeError(.invalidArgument, "give the code on the device: its manual code or its QR code's text")
        }
        let payload: SetupPayload
        do {
            payload = try SetupPayload(parsing: code)
        } catch {
            throw HomeError(.invalidArgument, "\(code.prefix(40)) is no Matter setup code: \(error)")
        }
        // Fresh from its box (its code says Bluetooth LE) through a proxy or the hub's adapter, given the network
        // chosen; else on the network already.
        let bluetooth = try await engine.bluetooth(for: payload)
        let settings = engine.commissioning
        var request = CommissionDevice(
            payload: code, address: bluetooth == nil ? settings.address : nil, interfaces: settings.interfaces,
            paaTrustStore: settings.paaTrustStore, acceptUntrustedDevice: false, name: action.name,
            room: action.room, bluetooth: bluetooth)
        request.wifiCredentialsID = action.wifi
        request.threadDatasetID = action.thread
        let id = action.id
        let device = try await engine.perform(request, caller: caller) { [send] progress in
            let text =
                switch progress {
                case .finished(let step, let seconds):
                    seconds < 1 ? "\(step) (\(Int(seconds * 1000)) ms)" : String(format: "%@ (%.1f s)", step, seconds)
                case .note(let note): note
                case .transfer(let percent, _): "\(percent) %"
                }
            send(
                JSONValue.object([("kind", .string("progress")), ("id", .signed(Int64(id))), ("text", .string(text))])
                    .rendered)
        }
        return .array(device.devices.map { .string($0.description) })
    }

    static func reply(_ id: Int, _ result: JSONValue) -> String {
        JSONValue.object([("kind", .string("reply")), ("id", .signed(Int64(id))), ("result", result)]).rendered
    }

    static func failure(_ id: Int, _ message: String) -> String {
        JSONValue.object([("kind", .string("failure")), ("id", .signed(Int64(id))), ("message", .string(message))])
            .rendered
    }
}

/// An action the page sends: its number, its name, and the arguments its name takes.
struct DashboardAction: Decodable, Sendable {
    let id: Int
    let action: String
    let device: String?
    let name: String?
    let room: String?
    let code: String?
    let node: String?
    let command: String?
    /// The stored Wi-Fi network and Thread dataset a device fresh from its box is given (`home network`'s IDs).
    let wifi: String?
    let thread: String?
    /// A command's fields by name (`invoke`).
    let fields: [String: UntypedJSON]?
    let values: [String: Int]?

    private enum CodingKeys: String, CodingKey {
        case id, action, device, name, room, code, node, command, wifi, thread, fields, level, mireds, index, cluster
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        action = try container.decode(String.self, forKey: .action)
        device = try container.decodeIfPresent(String.self, forKey: .device)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        room = try container.decodeIfPresent(String.self, forKey: .room)
        code = try container.decodeIfPresent(String.self, forKey: .code)
        node = try container.decodeIfPresent(String.self, forKey: .node)
        command = try container.decodeIfPresent(String.self, forKey: .command)
        wifi = try container.decodeIfPresent(String.self, forKey: .wifi)
        thread = try container.decodeIfPresent(String.self, forKey: .thread)
        fields = try container.decodeIfPresent([String: UntypedJSON].self, forKey: .fields)
        var values: [String: Int] = [:]
        for key in [CodingKeys.level, .mireds, .index, .cluster] {
            if let value = try container.decodeIfPresent(Int.self, forKey: key) { values[key.rawValue] = value }
        }
        self.values = values
    }

    /// The whole number `name`, within `range`.
    func number(_ name: String, in range: ClosedRange<Int>) throws(HomeError) -> Int {
        guard let value = values?[name] else { throw HomeError(.invalidArgument, "\(action) needs \(name)") }
        guard range.contains(value) else {
            throw HomeError(
                .invalidArgument, "\(name) \(value) is out of range: \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
