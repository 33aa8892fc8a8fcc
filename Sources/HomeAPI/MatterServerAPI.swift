import Foundation
import HTTPWebSocket
import HomeHub
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterPlatform
import MatterTLV
import Synchronization

/// The Matter-server WebSocket API (python-matter-server's protocol, schema 11; `../shared/protocols/matter-server-ws.md`)
/// that Home Assistant speaks, served by the hub on TCP, on loopback unless a token guards it (`MatterServerToken`):
/// `GET /info`, and `GET /ws`, where a client gets `server_info` as its first frame, then has every command of the
/// schema: `start_listening` (the nodes, then the events `node_added`, `node_updated` on every change of
/// availability, `node_removed`, `attribute_updated`, `node_event`, `endpoint_added` and `endpoint_removed`, only ever
/// about nodes and endpoints the client has; `server_shutdown` when the server stops; `server_info_updated` never:
/// nothing here changes the server's info while it runs), the nodes as MatterNodeData from the live model,
/// `device_command` and `write_attribute` through the data model's field tables (timed when asked or when the
/// specification makes them timed), `read_attribute` from the live cache, commissioning over IP (`discover` and
/// commissioning by passcode on the hub's interfaces), `import_test_node` (`MatterServerTestNodes`). What needs
/// what the hub has not (Bluetooth, Thread, an OTA source) answers the protocol's own error saying so;
/// `set_default_fabric_label` is accepted, the fabric's label staying the home's name (one hub, two views: the
/// names the Home API's own). An unknown command is error 9, bad arguments error 8, and nothing changes.
public final class MatterServerAPI: Sendable {
    /// The versions this side speaks (§2 of the facts: a client refuses a server below 11).
    static let schemaVersion = 11
    static let minimumSchemaVersion = 9

    private let listeners: [TCPListener]
    private let clients: MatterServerClients

    /// Where it listens (ports the kernel chose for port 0 included).
    public var addresses: [SocketAddress] { listeners.map(\.address) }

    /// The commands of connected clients still at work.
    var commandsInFlight: Int {
        clients.clients.withLock { clients in clients.values.reduce(0) { $0 + $1.commandsInFlight } }
    }

    /// With a token, every request (`/info` too) must present it; without one, only loopback addresses are served.
    init(context: HomeContext, listeningOn addresses: [SocketAddress], token: MatterServerToken?) throws(HomeError) {
        if token == nil, let open = addresses.first(where: { !$0.isLoopback }) {
            throw HomeError(
                .invalidArgument,
                "listening on \(open), beyond loopback, needs a token that clients present (a token file): the "
                    + "Matter-server API drives every device of the home")
        }
        let authority = try context.embedded("serving the Matter-server API").hub.authority
        let serverInfo = Self.serverInfo(
            fabricID: authority.fabricID, compressedFabricID: authority.compressedFabricIDNumber)
        let clients = MatterServerClients()
        self.clients = clients
        var listeners: [TCPListener] = []
        for address in addresses {
            do {
                listeners.append(
                    try TCPListener(address: address) { connection in
                        let client = MatterServerClient(
                            connection: connection, serverInfo: serverInfo, context: context, token: token,
                            peers: clients)
                        let id = ObjectIdentifier(connection)
                        clients.clients.withLock { $0[id] = client }
                        connection.start(received: client.received) {
                            clients.clients.withLock { $0.removeValue(forKey: id) }?.closed()
                        }
                    })
            } catch {
                for listener in listeners { listener.close() }
                throw HomeError(.unavailable, "cannot serve the Matter-server API on \(address): \(error)")
            }
        }
        self.listeners = listeners
    }

    /// Stops listening and closes every client.
    /// Listening clients are told `server_shutdown` first.
    public func stop() {
        for listener in listeners { listener.close() }
        for client in clients.clients.withLock({ Array($0.values) }) { client.shutDown() }
    }

    deinit { stop() }

    /// `server_info` as python-matter-server sends it: the compressed fabric ID as a plain 64-bit integer, which Home
    /// Assistant builds its device IDs from.
    static func serverInfo(fabricID: UInt64, compressedFabricID: UInt64) -> String {
        """
        {"fabric_id": \(fabricID), "compressed_fabric_id": \(compressedFabricID), "schema_version": \(schemaVersion), \
        "min_supported_schema_version": \(minimumSchemaVersion), "sdk_version": "swift-home", \
        "wifi_credentials_set": false, "thread_credentials_set": false, "bluetooth_enabled": false}
        """
    }
}

/// One client of the API: its HTTP head until it asks for the WebSocket, then its WebSocket; once it has asked
/// `start_listening`, the model's changes as the protocol's events.
/// The clients connected now: to close them when the API stops, and to tell every one of them what one client's
/// command did (a node interviewed, test nodes imported); and the test nodes they share.
private final class MatterServerClients: Sendable {
    let clients = Mutex<[ObjectIdentifier: MatterServerClient]>([:])
    let testNodes = MatterServerTestNodes()

    func interviewed(_ nodeID: UInt64) {
        for client in clients.withLock({ Array($0.values) }) { client.sendNode(nodeID) }
    }

    /// An event about a test node, to every listening client.
    func broadcast(_ event: String) {
        for client in clients.withLock({ Array($0.values) }) { client.sendIfListening(event) }
    }
}

private final class MatterServerClient: Sendable {
    private enum Phase {
        case head([UInt8])
        case webSocket(WebSocketConnection)
        case done
    }

    /// What the client has been sent of the home, once it listens: the nodes it knows (no event may name another,
    /// facts §9.3).
    private struct Listening {
        var known: [UInt64: KnownNode]
        let task: Task<Void, Never>
    }

    /// A node as the client was last told of it: whether available, and its endpoints (a bridge adds and drops
    /// some; the client hears of those as endpoint_added and endpoint_removed).
    private struct KnownNode {
        var available: Bool
        var endpoints: Set<UInt16>

        init(_ nodeID: UInt64, _ snapshot: HomeModel.Snapshot) {
            available = MatterServerNodes.isAvailable(nodeID, snapshot)
            endpoints = MatterServerNodes.endpoints(nodeID, snapshot)
        }
    }

    private let connection: StreamConnection
    private let serverInfo: String
    private let context: HomeContext
    private let token: MatterServerToken?
    private let peers: MatterServerClients
    private let phase = Mutex(Phase.head([]))
    private let listening = Mutex<Listening?>(nil)
    private let inFlight = Mutex(InFlight())

    /// The commands of this client still at work, and whether it is gone (a command after that is not started).
    private struct InFlight {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var lastID: UInt64 = 0
        var isClosed = false
    }

    init(
        connection: StreamConnection, serverInfo: String, context: HomeContext, token: MatterServerToken?,
        peers: MatterServerClients
    ) {
        self.peers = peers
        self.connection = connection
        self.serverInfo = serverInfo
        self.context = context
        self.token = token
    }

    /// On the loop's thread, in the order the bytes came: commands are answered in that order (start_listening's
    /// result straight after its request, §9.1), the slow ones later, by message_id.
    func received(_ bytes: [UInt8]) {
        let (writes, close, commands) = phase.withLock { phase in take(bytes, &phase) }
        for bytes in writes { connection.send(bytes) }
        if close { connection.closeAfterWrites() }
        for command in commands { handle(command) }
    }

    /// The connection is gone: its events stop, and so does every command still at work for it.
    func closed() {
        listening.withLock { $0?.task.cancel() }
        let commands = inFlight.withLock { inFlight -> [Task<Void, Never>] in
            defer { inFlight = InFlight(isClosed: true) }
            return Array(inFlight.tasks.values)
        }
        for command in commands { command.cancel() }
    }

    /// How many of its commands are still at work.
    var commandsInFlight: Int { inFlight.withLock { $0.tasks.count } }

    /// Runs a command that answers later (a commissioning, a discovery, a ping, an invoke): as a task of this client's,
    /// cancelled when it disconnects, so nothing goes on for a client that can no longer hear the answer.
    private func work(_ body: @escaping @Sendable () async -> Void) {
        inFlight.withLock { inFlight in
            guard !inFlight.isClosed else { return }
            inFlight.lastID += 1
            let id = inFlight.lastID
            // Inserted under the lock its end takes too: a command that ends at once still finds itself to remove.
            inFlight.tasks[id] = Task { [weak self] in
                await body()
                self?.inFlight.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// The server stops: a listening client hears `server_shutdown` (once its earlier frames are out), then the
    /// connection closes.
    func shutDown() {
        if listening.withLock({ $0 != nil }) { send(Self.event("server_shutdown", .null)) }
        connection.closeAfterWrites()
    }

    /// The node whole (node_updated), when the client listens and knows it.
    func sendNode(_ nodeID: UInt64) {
        if let test = peers.testNodes[nodeID] { return sendIfListening(Self.event("node_updated", test.json)) }
        let snapshot = context.model.snapshot
        guard listening.withLock({ $0?.known[nodeID] != nil }), let node = MatterServerNodes.node(nodeID, snapshot)
        else { return }
        send(Self.event("node_updated", node))
    }

    func sendIfListening(_ text: String) {
        if listening.withLock({ $0 != nil }) { send(text) }
    }

    /// Sends one text frame, unless the WebSocket is closing.
    private func send(_ text: String) {
        let writes = phase.withLock { phase -> [[UInt8]] in
            guard case .webSocket(var webSocket) = phase else { return [] }
            let actions = webSocket.send(text: text)
            phase = .webSocket(webSocket)
            return Self.writes(of: actions)
        }
        for bytes in writes { connection.send(bytes) }
    }

    private func take(_ bytes: [UInt8], _ phase: inout Phase) -> ([[UInt8]], Bool, [String]) {
        switch phase {
        case .done:
            return ([], false, [])
        case .head(let head):
            let buffered = head + bytes
            switch HTTPRequestHead.parse(buffered) {
            case .incomplete:
                phase = .head(buffered)
                return ([], false, [])
            case .invalid(let error):
                phase = .done
                return ([error.response.bytes], true, [])
            case .complete(let request, let length):
                return open(request, rest: Array(buffered[length...]), &phase)
            }
        case .webSocket(var webSocket):
            let actions = webSocket.receive(bytes)
            let result = carryOut(actions, &webSocket)
            phase = webSocket.isClosed ? .done : .webSocket(webSocket)
            return result
        }
    }

    /// What the API serves over HTTP: its info, and the WebSocket of its commands.
    private enum Route: Sendable {
        case info
        case webSocket
    }

    private static let router: HTTPRouter<Route> = {
        var router = HTTPRouter<Route>(notFoundHint: "the API is at /ws")
        router.add("GET", "/info", .info)
        router.add("GET", "/ws", .webSocket)
        return router
    }()

    private func open(
        _ request: HTTPRequestHead, rest: [UInt8], _ phase: inout Phase
    ) -> ([[UInt8]], Bool, [String]) {
        let route: Route
        switch Self.router.match(request) {
        case .route(let matched): route = matched
        case .refused(let response) where response.status == 405:
            phase = .done
            return ([response.bytes], true, [])
        case .refused(let response):
            // Unknown paths are told apart only to a client that may use the API.
            phase = .done
            return ([token.map { $0.admits(request) } == false ? Self.unauthorized.bytes : response.bytes], true, [])
        }
        if let token, !token.admits(request) {
            phase = .done
            return ([Self.unauthorized.bytes], true, [])
        }
        switch route {
        case .info:
            phase = .done
            let response = HTTPResponse(
                status: 200, fields: [HTTPField("Content-Type", "application/json"), HTTPField("Connection", "close")],
                body: Array(serverInfo.utf8))
            return ([response.bytes], true, [])
        case .webSocket:
            do throws(HTTPError) {
                let upgrade = try WebSocketHandshake.accept(request)
                var webSocket = WebSocketConnection()
                // server_info goes first, unprompted; then whatever the client sent behind its request.
                let (writes, close, commands) = carryOut(
                    webSocket.send(text: serverInfo) + webSocket.receive(rest), &webSocket)
                phase = webSocket.isClosed ? .done : .webSocket(webSocket)
                return ([upgrade.bytes] + writes, close, commands)
            } catch {
                phase = .done
                return ([error.handshakeResponse.bytes], true, [])
            }
        }
    }

    private static let unauthorized: HTTPResponse = {
        var refusal = HTTPError(401, "present the API's token: ?token=… or Authorization: Bearer …").response
        refusal.fields.append(HTTPField("WWW-Authenticate", "Bearer"))
        return refusal
    }()

    private func carryOut(
        _ actions: [WebSocketConnection.Action], _ webSocket: inout WebSocketConnection
    ) -> ([[UInt8]], Bool, [String]) {
        var writes: [[UInt8]] = []
        var close = false
        var commands: [String] = []
        for action in actions {
            switch action {
            case .write(let bytes): writes.append(bytes)
            case .closeConnection: close = true
            case .deliver(.text(let text)): commands.append(text)
            case .deliver(.binary):
                writes += Self.writes(of: webSocket.close(.unsupportedData, reason: "commands are JSON text frames"))
            }
        }
        return (writes, close, commands)
    }

    private static func writes(of actions: [WebSocketConnection.Action]) -> [[UInt8]] {
        actions.compactMap { if case .write(let bytes) = $0 { bytes } else { nil } }
    }

    // MARK: Commands

    /// One command frame (§2: `{"message_id", "command", "args"}`).
    private func handle(_ text: String) {
        guard let request = try? JSONDecoder().decode(MatterServerRequest.self, from: Data(text.utf8)) else {
            return send(Self.error("", .invalidArguments, "a command is a JSON object with a string message_id"))
        }
        let id = request.messageID
        guard let command = request.command else {
            return send(Self.error(id, .invalidArguments, "the command is missing"))
        }
        let model = context.model
        if let nodeID = request.args["node_id"]?.unsigned, let test = peers.testNodes[nodeID] {
            return handle(command, id, request.args, testNode: nodeID, test)
        }
        switch command {
        case "server_info":
            send(Self.reply(id, serverInfo))
        case "start_listening":
            startListening(id)
        case "get_nodes":
            let onlyAvailable = request.args["only_available"]?.bool ?? false
            let tests = peers.testNodes.all.filter { node in
                !onlyAvailable || node.member("available") == .bool(true)
            }
            let nodes = MatterServerNodes.all(model.snapshot, onlyAvailable: onlyAvailable) + tests
            send(Self.reply(id, JSONValue.array(nodes).rendered))
        case "get_node":
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard let node = MatterServerNodes.node(nodeID, model.snapshot) else {
                return send(Self.unknownNode(id, nodeID))
            }
            send(Self.reply(id, node.rendered))
        case "set_default_fabric_label":
            guard let label = request.args["label"], label.isNull || label.string != nil else {
                return send(Self.missing(id, "label"))
            }
            send(Self.reply(id, "null"))
        case "device_command":
            deviceCommand(id, request.args)
        case "get_node_ip_addresses":
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard let node = model.snapshot.devices[nodeID]?.first?.node else {
                return send(Self.unknownNode(id, nodeID))
            }
            // The addresses the hub last reached the node at, most recent first.
            send(Self.reply(id, JSONValue.array(node.addresses.map { .string($0.host) }).rendered))
        case "diagnostics":
            let snapshot = model.snapshot
            let events = snapshot.recentEvents.flatMap { nodeID, events in events.map { (nodeID, $0) } }
                .sorted { $0.1.number < $1.1.number }.suffix(25).map { Self.nodeEvent($0.0, $0.1) }
            send(
                Self.reply(
                    id,
                    #"{"info": \#(serverInfo), "nodes": \#(JSONValue.array(MatterServerNodes.all(snapshot) + peers.testNodes.all).rendered), "events": \#(JSONValue.array(Array(events)).rendered)}"#
                ))
        case "check_node_update", "update_node":
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
            // UpdateCheckError (10) and UpdateError (11): there is nowhere to look for or get a new version.
            send(
                Self.error(
                    id, command == "update_node" ? .updateError : .updateCheckError,
                    "this hub has no OTA source (no DCL access, no local update files) yet, so it can neither look "
                        + "for nor install a device update"))
        case "set_wifi_credentials", "set_thread_dataset":
            send(
                Self.error(
                    id, .unknown,
                    "this hub commissions devices already on IP only: it has no Bluetooth to hand Wi-Fi or Thread "
                        + "credentials to a new device"))
        case "read_attribute":
            readAttributes(id, request.args)
        case "write_attribute":
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard let path = request.args["attribute_path"]?.string.flatMap(Self.concretePath) else {
                return send(
                    Self.error(
                        id, .invalidArguments,
                        "attribute_path is endpoint/cluster/attribute, three numbers (a write has no wildcard)"))
            }
            guard let value = request.args["value"] else { return send(Self.missing(id, "value")) }
            write(id, nodeID: nodeID, path: path, value: value)
        case "set_acl_entry":
            // The node's whole ACL for this fabric (Matter Core §9.10.5.3): the entries given replace the ones there.
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard let entries = request.args["entry"], case .array = entries else {
                return send(Self.missing(id, "entry"))
            }
            write(id, nodeID: nodeID, path: (0, AccessControlCluster.id.rawValue, 0), value: entries)
        case "set_node_binding":
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard let endpoint = request.args["endpoint"]?.unsigned, endpoint <= UInt16.max else {
                return send(Self.missing(id, "endpoint"))
            }
            guard let bindings = request.args["bindings"], case .array = bindings else {
                return send(Self.missing(id, "bindings"))
            }
            write(id, nodeID: nodeID, path: (UInt16(endpoint), BindingCluster.id.rawValue, 0), value: bindings)
        case "commission_with_code":
            commissionWithCode(id, request.args)
        case "commission_on_network":
            commissionOnNetwork(id, request.args)
        case "open_commissioning_window":
            openWindow(id, request.args)
        case "remove_node":
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
            work { [self] in
                do throws(HomeError) {
                    // Removing a node is allowed to whoever may add devices to the home's structure: the hub's owner.
                    let structureID = try HomeContext.defaultStructureID(context.model.snapshot)
                    _ = try await context.execute(
                        .decommission(nodeID: nodeID, structureID: structureID), caller: caller)
                    send(Self.reply(id, "null"))
                } catch {
                    send(Self.error(id, .unknown, error.message))
                }
            }
        case "interview_node":
            // Answered once the node was read again; the node follows whole (node_updated) to every listening
            // client, as python-matter-server sends it after an interview.
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
            work { [self] in
                do throws(HomeError) {
                    _ = try await context.execute(.interview(nodeID: nodeID), caller: caller)
                    send(Self.reply(id, "null"))
                    peers.interviewed(nodeID)
                } catch {
                    send(Self.error(id, MatterServerError(error)))
                }
            }
        case "import_test_node":
            guard let dump = request.args["dump"]?.string else { return send(Self.missing(id, "dump")) }
            do throws(MatterServerTestNodes.Invalid) {
                let imported = try peers.testNodes.importNodes(
                    from: dump, besides: Set(model.snapshot.devices.keys))
                send(Self.reply(id, "null"))
                for node in imported { peers.broadcast(Self.event("node_added", node)) }
            } catch {
                send(Self.error(id, .invalidArguments, "\(error)"))
            }
        case "discover":
            work { [self] in
                do throws(HomeError) {
                    let nodes = try await discover().map(Self.commissionableNodeData)
                    send(Self.reply(id, JSONValue.array(nodes).rendered))
                } catch {
                    send(Self.error(id, .unknown, error.message))
                }
            }
        case "get_vendor_names":
            vendorNames(id, request.args["filter_vendors"])
        case "ping_node":
            guard let nodeID = request.args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
            guard model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
            work { [self] in send(Self.reply(id, await ping(nodeID).rendered)) }
        default:
            send(Self.error(id, .invalidCommand, "Invalid command: \(command)"))
        }
    }

    /// The nodes now as the reply, then every change as events. The listener is registered before the snapshot is
    /// read, so no change is missed; one that the snapshot already shows is sent again, which the client takes as
    /// the same state. The reply is queued before the listener can send anything: python-matter-server's client
    /// reads the first message after its request as the reply (§9.1), so an event before it would break the client.
    private func startListening(_ id: String) {
        let changes = context.model.changes(.all)
        let snapshot = context.model.snapshot
        let known = Dictionary(uniqueKeysWithValues: snapshot.devices.keys.map { ($0, KnownNode($0, snapshot)) })
        let reply = Self.reply(id, JSONValue.array(MatterServerNodes.all(snapshot) + peers.testNodes.all).rendered)
        let begun = listening.withLock { listening -> Bool in
            guard listening == nil else { return false }
            // Under the lock that `forward` takes before it sends: no event can be queued ahead of the reply.
            send(reply)
            let task = Task { [weak self] in
                for await update in changes {
                    guard let self else { return }
                    self.forward(update)
                }
            }
            listening = Listening(known: known, task: task)
            return true
        }
        guard begun else {
            return send(Self.error(id, .unknown, "this client is already listening"))
        }
    }

    /// One batch of the model's changes as the protocol's events. A node whose endpoints changed is sent whole
    /// (node_updated) before endpoint_added, as python-matter-server does after it re-interviews a bridge, so the client
    /// has the new endpoint's attributes when it hears of it; attribute_updated is sent only for endpoints the client
    /// knows.
    private func forward(_ update: HomeModel.Update) {
        let snapshot = context.model.snapshot
        var events: [String] = []
        listening.withLock { listening in
            guard var state = listening else { return }
            var touched: Set<UInt64> = []
            switch update {
            case .fellBehind:
                // What was missed is unknown: every node again, whole.
                touched = Set(state.known.keys).union(snapshot.devices.keys)
            case .changes(let changes):
                for change in changes {
                    switch change {
                    case .attributes(let nodeID, _, let values):
                        guard let known = state.known[nodeID] else { break }
                        for (path, value) in values.sorted(by: {
                            MatterServerNodes.key($0.key) < MatterServerNodes.key($1.key)
                        }) where known.endpoints.contains(path.endpoint) {
                            let json = value.map { JSONValue($0, octetStrings: .base64) } ?? .null
                            events.append(
                                Self.event(
                                    "attribute_updated",
                                    .array([.unsigned(nodeID), .string(MatterServerNodes.key(path)), json])))
                        }
                        // Endpoints come and go with a Descriptor's PartsList (or a report from a new one).
                        let mayChangeEndpoints = values.keys.contains {
                            $0.cluster == DescriptorCluster.id.rawValue || !known.endpoints.contains($0.endpoint)
                        }
                        if mayChangeEndpoints && MatterServerNodes.endpoints(nodeID, snapshot) != known.endpoints {
                            touched.insert(nodeID)
                        }
                    case .event(let nodeID, let event) where state.known[nodeID] != nil:
                        events.append(Self.event("node_event", Self.nodeEvent(nodeID, event)))
                    case .event, .unreadable:
                        break
                    default:
                        if let nodeID = change.nodeID { touched.insert(nodeID) }
                    }
                }
            }
            for nodeID in touched.sorted() {
                guard let node = MatterServerNodes.node(nodeID, snapshot) else {
                    if state.known.removeValue(forKey: nodeID) != nil {
                        events.append(Self.event("node_removed", .unsigned(nodeID)))
                    }
                    continue
                }
                let now = KnownNode(nodeID, snapshot)
                guard let known = state.known[nodeID] else {
                    events.append(Self.event("node_added", node))
                    state.known[nodeID] = now
                    continue
                }
                let endpoint = { (endpoint: UInt16) in
                    JSONValue.object([("node_id", .unsigned(nodeID)), ("endpoint_id", .unsigned(UInt64(endpoint)))])
                }
                for removed in known.endpoints.subtracting(now.endpoints).sorted() {
                    events.append(Self.event("endpoint_removed", endpoint(removed)))
                }
                let added = now.endpoints.subtracting(known.endpoints).sorted()
                if known.available != now.available || !added.isEmpty || update.isFellBehind {
                    events.append(Self.event("node_updated", node))
                }
                for endpointID in added { events.append(Self.event("endpoint_added", endpoint(endpointID))) }
                state.known[nodeID] = now
            }
            listening = state
        }
        for event in events { send(event) }
    }

    /// A command to a node's endpoint, named as the CHIP Python codegen names it (`MoveToLevelWithOnOff`, or camel-case),
    /// its payload name-keyed; timed when asked (`timed_request_timeout_ms`). The answer is null, or the response's
    /// fields by name. Refused before anything is sent: an unknown node (5), one not available (3), a cluster,
    /// command or field the data model does not have, or a value of the wrong type (8).
    private func deviceCommand(_ id: String, _ args: [String: MatterServerRequest.Argument]) {
        guard let nodeID = args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
        guard let endpoint = args["endpoint_id"]?.unsigned, endpoint <= UInt16.max else {
            return send(Self.missing(id, "endpoint_id"))
        }
        guard let clusterID = args["cluster_id"]?.unsigned, clusterID <= UInt32.max else {
            return send(Self.missing(id, "cluster_id"))
        }
        guard let name = args["command_name"]?.string else { return send(Self.missing(id, "command_name")) }
        let snapshot = context.model.snapshot
        guard snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        guard MatterServerNodes.isAvailable(nodeID, snapshot) else {
            return send(Self.error(id, .notReady(nodeID)))
        }
        guard let cluster = ClusterRegistry.standard[ClusterID(rawValue: UInt32(clusterID))] else {
            return send(Self.error(id, .invalidArguments, "cluster \(clusterID) is not in the data model"))
        }
        guard
            let command = cluster.acceptedCommands.first(where: {
                $0.value == name || $0.value.prefix(1).lowercased() + $0.value.dropFirst() == name
            })
        else {
            return send(Self.error(id, .invalidArguments, "\(cluster.name) has no command \(name)"))
        }
        let payload: [String: MatterServerRequest.Argument]
        switch args["payload"] {
        case .object(let object)?: payload = object
        case nil, .null?: payload = [:]
        default: return send(Self.missing(id, "payload"))
        }
        let fields: TLVElement
        do throws(MatterServerPayload.Invalid) {
            fields = try MatterServerPayload.encode(payload, fields: cluster.commandFields[command.key] ?? [])
        } catch {
            return send(Self.error(id, .invalidArguments, "\(cluster.name).\(command.value): \(error)"))
        }
        let timed: Int64?
        switch args["timed_request_timeout_ms"] {
        case .unsigned(let milliseconds)? where milliseconds > 0 && milliseconds <= UInt64(UInt16.max):
            timed = Int64(milliseconds)
        case nil, .null?:
            timed = cluster.timedCommands.contains(command.key) ? Self.specTimedWindowMilliseconds : nil
        default: return send(Self.missing(id, "timed_request_timeout_ms"))
        }
        let invocation = HubRequest.Invocation(
            nodeID: nodeID, endpoint: UInt16(endpoint), cluster: UInt32(clusterID), command: command.key.rawValue,
            name: command.value, fields: fields, timedWindowMilliseconds: timed)
        let caller = HubCaller(uid: getuid(), process: .current())
        work { [self] in
            do throws(HomeError) {
                guard
                    case .invoked(let responseID, let responseFields) = try await context.execute(
                        .invoke(invocation), caller: caller)
                else { return send(Self.reply(id, "null")) }
                guard let responseID, let responseFields else { return send(Self.reply(id, "null")) }
                let names = cluster.responseFields[CommandID(rawValue: responseID)] ?? []
                send(Self.reply(id, MatterServerPayload.decode(responseFields, fields: names).rendered))
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
    private func write(
        _ id: String, nodeID: UInt64, path: (endpoint: UInt16, cluster: UInt32, attribute: UInt32),
        value: MatterServerRequest.Argument
    ) {
        let snapshot = context.model.snapshot
        guard snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        guard MatterServerNodes.isAvailable(nodeID, snapshot) else {
            return send(Self.error(id, .notReady(nodeID)))
        }
        let registry = ClusterRegistry.standard
        let name = registry.describe(
            cluster: ClusterID(rawValue: path.cluster), attribute: AttributeID(rawValue: path.attribute))
        guard
            let attribute = registry[ClusterID(rawValue: path.cluster)]?.writableAttributes[
                AttributeID(rawValue: path.attribute)]
        else {
            return send(Self.error(id, .invalidArguments, "\(name) is not an attribute a client may write"))
        }
        let element: TLVElement
        do throws(MatterServerPayload.Invalid) {
            element = try MatterServerPayload.encode(value, as: attribute)
        } catch {
            return send(Self.error(id, .invalidArguments, "\(name): \(error)"))
        }
        let request = HubRequest.AttributeWrite(
            nodeID: nodeID, endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute, name: name,
            value: element,
            timedWindowMilliseconds: attribute.requiresTimedWrite ? Self.specTimedWindowMilliseconds : nil)
        work { [self] in
            do throws(HomeError) {
                guard case .written(let status) = try await context.execute(.writeAttribute(request), caller: caller)
                else {
                    return send(Self.error(id, .unknown, "the hub answered the write with something else"))
                }
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

    /// The vendors the hub knows by name, as `{"<vendor ID>": name}` (only those asked for, with `filter_vendors`):
    /// the ones its devices name themselves (Basic Information's VendorID and VendorName). This hub has no copy of
    /// the CSA's vendor list (the DCL) to name the others.
    private func vendorNames(_ id: String, _ filter: MatterServerRequest.Argument?) {
        var wanted: Set<UInt64>?
        switch filter {
        case nil, .null?: wanted = nil
        case .array(let items)? where items.allSatisfy({ $0.unsigned != nil }):
            wanted = Set(items.compactMap(\.unsigned))
        default: return send(Self.missing(id, "filter_vendors"))
        }
        var names: [UInt64: String] = [:]
        for view in context.model.snapshot.views.values {
            guard let vendorID = try? view.cache.value(BasicInformationCluster.Attributes.vendorID, endpoint: 0),
                let name = try? view.cache.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0),
                wanted?.contains(UInt64(vendorID)) ?? true
            else { continue }
            names[UInt64(vendorID)] = name
        }
        let result = JSONValue.object(names.sorted { $0.key < $1.key }.map { (String($0.key), .string($0.value)) })
        send(Self.reply(id, result.rendered))
    }

    /// The timed window of a command or write the specification requires to be timed when the client gave none: a
    /// second, as Home Assistant gives its door locks, ample for one exchange on a local network.
    static let specTimedWindowMilliseconds: Int64 = 1000

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
    private func readAttributes(_ id: String, _ args: [String: MatterServerRequest.Argument]) {
        guard let nodeID = args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
        let texts: [String]
        switch args["attribute_path"] {
        case .string(let path)?: texts = [path]
        case .array(let items)? where items.allSatisfy({ $0.string != nil }): texts = items.compactMap(\.string)
        default: return send(Self.missing(id, "attribute_path"))
        }
        let patterns = texts.map { $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init) }
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
        let snapshot = context.model.snapshot
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

    /// A command about a test node (`MatterServerTestNodes`), as python-matter-server answers it: what would reach
    /// the device does nothing and answers null; the node is read from its dump; removing it forgets it.
    private func handle(
        _ command: String, _ id: String, _ args: [String: MatterServerRequest.Argument], testNode nodeID: UInt64,
        _ test: MatterServerTestNodes.TestNode
    ) {
        switch command {
        case "get_node":
            send(Self.reply(id, test.json.rendered))
        case "read_attribute":
            readAttributes(id, args)
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

    /// The hub's own user: who the API acts as (it listens on loopback, or behind a token once that is built).
    private var caller: HubCaller { HubCaller(uid: getuid(), process: .current()) }

    /// A device added by its QR or manual code, over IP (discovery on the hub's interfaces): the new node once its
    /// devices are in the home and the hub follows it. A code that says the device is reachable by Bluetooth only is
    /// refused (this hub has no Bluetooth) unless `network_only` says to look on the network anyway.
    private func commissionWithCode(_ id: String, _ args: [String: MatterServerRequest.Argument]) {
        guard let code = args["code"]?.string else { return send(Self.missing(id, "code")) }
        let networkOnly = args["network_only"]?.bool ?? false
        guard let payload = try? SetupPayload(parsing: code) else {
            return send(Self.error(id, .invalidArguments, "\(code.prefix(40)) is no QR or manual pairing code"))
        }
        if !networkOnly, let capabilities = payload.discoveryCapabilities, !capabilities.contains(.onNetwork) {
            return send(
                Self.error(
                    id, .nodeCommissionFailed,
                    "the code says the device is reached by Bluetooth (or SoftAP) only: this hub commissions over IP only; "
                        + "put the device on the network first, or send network_only to look for it there"))
        }
        commission(id, code: code, address: nil)
    }

    /// A device in commissioning mode on the network, by its passcode: at `ip_addr` (port 5540, Matter's default),
    /// or found by DNS-SD with a discriminator filter (`filter_type` 1, short; 2, long). Other filters (vendor,
    /// device type, …) are not built and say so.
    private func commissionOnNetwork(_ id: String, _ args: [String: MatterServerRequest.Argument]) {
        guard let pin = args["setup_pin_code"]?.unsigned, pin <= UInt64(UInt32.max) else {
            return send(Self.missing(id, "setup_pin_code"))
        }
        let filter = args["filter"]?.unsigned
        let discriminator: Discriminator
        switch args["filter_type"]?.unsigned ?? 0 {
        case 0: discriminator = .short(0)  // unused: the address says where the device is
        case 1 where (filter ?? .max) <= 15: discriminator = .short(UInt8(filter ?? 0))
        case 2 where (filter ?? .max) <= 4095: discriminator = .long(UInt16(filter ?? 0))
        case 1, 2: return send(Self.missing(id, "filter"))
        case let other:
            return send(
                Self.error(
                    id, .invalidArguments,
                    "filter_type \(other) is not built: give ip_addr, or a discriminator (filter_type 1 or 2)"))
        }
        var address: SocketAddress?
        if let text = args["ip_addr"]?.string {
            if let ipv6 = IPv6Address(text) {
                address = .ipv6(ipv6, port: 5540)
            } else if let ipv4 = IPv4Address(text) {
                address = .ipv4(ipv4, port: 5540)
            } else {
                return send(Self.error(id, .invalidArguments, "ip_addr \(text.prefix(60)) is no IP address"))
            }
        } else if args["filter_type"]?.unsigned ?? 0 == 0 {
            return commissionByPasscode(id, UInt32(pin))
        }
        let payload = SetupPayload(
            vendorID: nil, productID: nil, discoveryCapabilities: [.onNetwork], discriminator: discriminator,
            passcode: UInt32(pin))
        guard let code = try? payload.manualCode() else {
            return send(Self.error(id, .invalidArguments, "\(pin) is not a valid setup passcode"))
        }
        commission(id, code: code, address: address)
    }

    /// Commissions the device of `code` (at `address`, or found by discovery on the hub's interfaces) and answers its
    /// node once the hub follows it.
    private func commission(_ id: String, code: String, address: SocketAddress?) {
        work { [self] in
            do throws(HomeError) {
                send(Self.reply(id, try await commissioned(code: code, address: address).rendered))
            } catch {
                send(Self.error(id, .nodeCommissionFailed, error.message))
            }
        }
    }

    /// The node the device becomes, once commissioned and followed: as python-matter-server answers, after the
    /// first subscription, so the node comes whole.
    private func commissioned(code: String, address: SocketAddress?) async throws(HomeError) -> JSONValue {
        let local = try context.embedded("commissioning through the Matter-server API")
        let request = HubRequest.DirectCommissioning(
            payload: code, address: address ?? local.commissioning.address,
            interfaces: local.commissioning.interfaces, paaTrustStore: local.commissioning.paaTrustStore,
            acceptUntrustedDevice: false, name: nil, room: nil)
        guard case .commissioned(let device) = try await context.execute(.commissionDevice(request), caller: caller)
        else { throw HomeError(.internal, "the hub answered the commissioning with something else") }
        _ = try? await local.live.connection(to: device.nodeID)
        guard let node = MatterServerNodes.node(device.nodeID, context.model.snapshot) else {
            throw HomeError(.unavailable, "the node left the home meanwhile")
        }
        return node
    }

    /// How long `discover` (and commissioning by passcode alone) listens for commissionable devices: as long as
    /// `home discover` does by default, enough for every device on the link to answer a query and its retries.
    static let discoveryWindow: Duration = .seconds(3)

    /// The devices in commissioning mode that answer on the hub's interfaces (DNS-SD `_matterc._udp`), as
    /// python-matter-server's CommissionableNodeData.
    private func discover() async throws(HomeError) -> [CommissionableNode] {
        let interfaces = try context.embedded("discovering devices").commissioning.interfaces
        guard !interfaces.isEmpty else {
            throw HomeError(
                .failedPrecondition,
                "the hub looks for devices on no interface: start it with home serve --interface NAME")
        }
        do throws(MulticastDNSError) {
            return try await MulticastDNSQuerier().browseCommissionable(
                .all, interfaces: interfaces, timeout: Self.discoveryWindow)
        } catch {
            throw HomeError(.unavailable, "discovery on \(interfaces.joined(separator: ", ")): \(error)")
        }
    }

    private static func commissionableNodeData(_ node: CommissionableNode) -> JSONValue {
        let txt = node.txt
        let number = { (value: UInt64?) -> JSONValue in value.map(JSONValue.unsigned) ?? .null }
        let text = { (value: String?) -> JSONValue in value.map(JSONValue.string) ?? .null }
        let milliseconds = { (duration: Duration?) -> JSONValue in
            number(duration.map { UInt64($0 / .milliseconds(1)) })
        }
        let addresses: [String] = node.ipv6Addresses.map(\.description) + node.ipv4Addresses.map(\.description)
        // §4.3.1.9: T is a bitmap; bit 1 or 2 says TCP as a client or a server.
        let tcp: Bool = (txt.tcpSupport ?? 0) & 0b110 != 0
        let members: [(String, JSONValue)] = [
            ("instance_name", .string(node.instanceName)),
            ("host_name", .string(node.hostName.description)),
            ("port", .unsigned(UInt64(node.port))),
            ("long_discriminator", number(node.longDiscriminator.map(UInt64.init))),
            ("vendor_id", number(txt.vendorID.map(UInt64.init))),
            ("product_id", number(txt.productID.map(UInt64.init))),
            ("commissioning_mode", number(txt.commissioningMode.map(UInt64.init))),
            ("device_type", number(txt.deviceType.map(UInt64.init))),
            ("device_name", text(txt.deviceName)),
            ("pairing_instruction", text(txt.pairingInstruction)),
            ("pairing_hint", number(txt.pairingHint.map(UInt64.init))),
            ("mrp_retry_interval_idle", milliseconds(txt.sessionIdleInterval)),
            ("mrp_retry_interval_active", milliseconds(txt.sessionActiveInterval)),
            ("supports_tcp", .bool(tcp)),
            ("addresses", .array(addresses.map(JSONValue.string))),
            ("rotating_id", text(txt.rotatingID)),
        ]
        return .object(members)
    }

    /// Commissioning by passcode alone: every device in commissioning mode on the hub's interfaces is tried in turn
    /// (the passcode is what tells them apart) until one is commissioned.
    private func commissionByPasscode(_ id: String, _ passcode: UInt32) {
        work { [self] in
            do throws(HomeError) {
                let candidates = try await discover().filter { ($0.txt.commissioningMode ?? 0) != 0 }
                guard !candidates.isEmpty else {
                    return send(
                        Self.error(
                            id, .nodeCommissionFailed,
                            "no device in commissioning mode answered within \(Self.discoveryWindow)"))
                }
                var failures: [String] = []
                for candidate in candidates {
                    guard let discriminator = candidate.longDiscriminator,
                        let address = candidate.ipv6Addresses.first.map({ SocketAddress.ipv6($0, port: candidate.port) }
                        )
                            ?? candidate.ipv4Addresses.first.map({ SocketAddress.ipv4($0, port: candidate.port) }),
                        let code = try? SetupPayload(
                            vendorID: nil, productID: nil, discoveryCapabilities: [.onNetwork],
                            discriminator: .long(discriminator), passcode: passcode
                        ).manualCode()
                    else { continue }
                    do throws(HomeError) {
                        return send(Self.reply(id, try await commissioned(code: code, address: address).rendered))
                    } catch {
                        failures.append("\(candidate.instanceName): \(error.message)")
                    }
                }
                send(
                    Self.error(
                        id, .nodeCommissionFailed, "no device took the passcode: " + failures.joined(separator: "; ")))
            } catch {
                send(Self.error(id, .nodeCommissionFailed, error.message))
            }
        }
    }

    /// An enhanced commissioning window (Matter Core §11.19.8.1) on the node, for another controller: its passcode and
    /// codes. The window's discriminator and PBKDF iterations are the hub's own choice, so a request for others is
    /// refused rather than silently ignored.
    private func openWindow(_ id: String, _ args: [String: MatterServerRequest.Argument]) {
        guard let nodeID = args["node_id"]?.unsigned else { return send(Self.missing(id, "node_id")) }
        let timeout = args["timeout"]?.unsigned ?? 300
        guard (180...900).contains(timeout) else {
            return send(Self.error(id, .invalidArguments, "timeout must be 180 to 900 s (Matter Core §11.19.8.1)"))
        }
        guard (args["option"]?.unsigned ?? 1) == 1, args["discriminator"]?.isNull ?? true,
            (args["iteration"]?.unsigned ?? 1000) == 1000
        else {
            return send(
                Self.error(
                    id, .invalidArguments,
                    "only the enhanced window (option 1) with the hub's own discriminator and 1000 iterations is built")
            )
        }
        let snapshot = context.model.snapshot
        guard let record = snapshot.devices[nodeID]?.first else { return send(Self.unknownNode(id, nodeID)) }
        let structureID =
            record.roomID.flatMap { room in snapshot.rooms.first { $0.id == room }?.structureID }
            ?? snapshot.defaultStructureID ?? ""
        let device = HubRequest.SharedDevice(
            nodeID: nodeID, vendorID: record.node.vendorID, productID: record.node.productID, structureID: structureID,
            label: "\(record.name) (\(record.id))")
        work { [self] in
            do throws(HomeError) {
                guard
                    case .window(let window) = try await context.execute(
                        .openCommissioningWindow(device, seconds: UInt16(timeout)), caller: caller),
                    let passcode = try? SetupPayload(parsing: window.manualCode).passcode
                else { return send(Self.error(id, .unknown, "the hub answered something else")) }
                send(
                    Self.reply(
                        id,
                        JSONValue.object([
                            ("setup_pin_code", .unsigned(UInt64(passcode))),
                            ("setup_manual_code", .string(window.manualCode)),
                            ("setup_qr_code", .string(window.qrCode)),
                        ]).rendered))
            } catch {
                send(Self.error(id, MatterServerError(error)))
            }
        }
    }

    /// A node's event as node_event's data: its fields by the data model's names.
    private static func nodeEvent(_ nodeID: UInt64, _ event: NodeEvent) -> JSONValue {
        let names = ClusterRegistry.standard[event.cluster]?.eventFields[event.event] ?? [:]
        let fields = names.sorted { $0.key < $1.key }.map { FieldInfo($0.key, $0.value, .unsigned) }
        let timestamp: (UInt64, UInt64) =
            switch event.timestamp {
            case .epochMilliseconds(let value)?: (value, 1)
            case .systemMilliseconds(let value)?: (value, 0)
            case nil: (0, 0)
            }
        return .object([
            ("node_id", .unsigned(nodeID)), ("endpoint_id", .unsigned(UInt64(event.endpoint))),
            ("cluster_id", .unsigned(UInt64(event.cluster.rawValue))),
            ("event_id", .unsigned(UInt64(event.event.rawValue))), ("event_number", .unsigned(event.number)),
            ("priority", .unsigned(UInt64(event.priority.rawValue))), ("timestamp", .unsigned(timestamp.0)),
            ("timestamp_type", .unsigned(timestamp.1)),
            ("data", event.data.map { MatterServerPayload.decode($0, fields: fields) } ?? .null),
        ])
    }

    /// `{"<address>": reached}`: the hub's own live session answering a read (python-matter-server pings each address).
    private func ping(_ nodeID: UInt64) async -> JSONValue {
        let address = context.model.snapshot.devices[nodeID]?.first?.node.addresses.first
        do {
            let caller = HubCaller(uid: getuid(), process: .current())
            guard
                case .pinged(let reached, _, _, _) = try await context.execute(
                    .ping(nodeID: nodeID, reads: 1), caller: caller)
            else { return .object([]) }
            return .object([(reached.host, .bool(true))])
        } catch {
            return .object(address.map { [($0.host, .bool(false))] } ?? [])
        }
    }

    // MARK: Envelopes

    private static func reply(_ messageID: String, _ result: String) -> String {
        #"{"message_id": \#(quoted(messageID)), "result": \#(result)}"#
    }

    private static func event(_ name: String, _ data: JSONValue) -> String {
        #"{"event": \#(quoted(name)), "data": \#(data.rendered)}"#
    }

    private static func error(_ messageID: String, _ error: MatterServerError) -> String {
        #"{"message_id": \#(quoted(messageID)), "error_code": \#(error.code.rawValue), "details": \#(quoted(error.details))}"#
    }

    private static func error(_ messageID: String, _ code: MatterServerError.Code, _ details: String) -> String {
        error(messageID, MatterServerError(code, details))
    }

    private static func missing(_ messageID: String, _ argument: String) -> String {
        error(messageID, .missing(argument))
    }

    private static func unknownNode(_ messageID: String, _ nodeID: UInt64) -> String {
        error(messageID, .unknownNode(nodeID))
    }

    private static func quoted(_ text: String) -> String {
        JSONValue.string(text).rendered
    }
}

extension HomeModel.Update {
    fileprivate var isFellBehind: Bool {
        if case .fellBehind = self { return true }
        return false
    }
}

extension Home {
    /// Serves the Matter-server WebSocket API on `addresses` while the returned value lives (or until `stop()`):
    /// `home serve --listen`. Only the hub itself serves it.
    /// Beyond loopback it needs `token`, which every client then presents.
    @_spi(HomeCommandLine) public func serveMatterServerAPI(
        listeningOn addresses: [SocketAddress], token: MatterServerToken? = nil
    ) throws(HomeError) -> MatterServerAPI {
        try MatterServerAPI(context: context, listeningOn: addresses, token: token)
    }
}
