import BLEProxy
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
import MatterTime
import OpenThreadREST
import Synchronization

/// The Matter-server WebSocket API (python-matter-server's protocol, schema 11; `../shared/protocols/matter-server-ws.md`)
/// that Home Assistant speaks, served by the hub on TCP, on loopback unless a token guards it (`MatterServerToken`):
/// `GET /info`, and `GET /ws`, where a client gets `server_info` as its first frame, then has every command of the
/// schema: `start_listening` (the nodes, then the events `node_added`, `node_updated` on every change of
/// availability, `node_removed`, `attribute_updated`, `node_event`, `endpoint_added` and `endpoint_removed`, only ever
/// about nodes and endpoints the client has; `server_shutdown` when the server stops; `server_info_updated` when
/// network credentials are set), the nodes as MatterNodeData from the live model,
/// `device_command` and `write_attribute` through the data model's field tables (timed when asked or when the
/// specification makes them timed), `read_attribute` from the live cache, commissioning over IP (`discover` and
/// commissioning by passcode on the hub's interfaces), `import_test_node` (`MatterServerTestNodes`),
/// `set_wifi_credentials` and `set_thread_dataset` (kept by the hub, as `home network` keeps them). What needs
/// what the hub has not (Bluetooth, an OTA source) answers the protocol's own error saying so;
/// `set_default_fabric_label` is accepted, the fabric's label staying the home's name (one hub, two views: the
/// names the Home API's own). Schema 13's firmware upload is served already (`initiate_ota_upload`, then
/// `POST /ota-upload/<id>`: `OTAUploads`). An unknown command is error 9, bad arguments error 8, and nothing changes. Until its
/// request head is whole a connection is a stranger's: it has `HTTPWebSocketLimits.requestHeadTime` to send it, and
/// only so many may wait per peer and in all (`WaitingHeads`); a WebSocket, once open, is never timed out by them.
public final class MatterServerAPI: Sendable {
    /// The versions this side speaks (§2 of the facts: a client refuses a server below 11). 13: every command and
    /// event of schemas 12 and 13 as matterjs-server's changelog defines them, each schema-12+ event only to the
    /// connections that opted in; a client of 9 to 11 sees none of it unless it asks.
    static let schemaVersion = 13
    static let minimumSchemaVersion = 9

    private let listeners: [TCPListener]
    private let clients: MatterServerClients
    /// Reads whether Bluetooth LE reaches a device, for server_info, while the API serves.
    private let bluetoothWatch: Task<Void, Never>
    /// The hub's adapter powered on or off, as BlueZ signals it.
    private let adapterWatch: (@Sendable () -> Void)?

    /// What its clients may do beyond seeing and controlling devices.
    public var clientRights: HubRights {
        if case .client(let client) = clients.caller.principal { return client.rights }
        return []
    }

    /// Where it listens (ports the kernel chose for port 0 included).
    public var addresses: [SocketAddress] { listeners.map(\.address) }

    /// Connections accepted that have not sent their whole request head yet.
    var headsWaiting: Int { clients.waitingHeads.count }

    /// The commands of connected clients still at work.
    var commandsInFlight: Int {
        clients.clients.withLock { clients in clients.values.reduce(0) { $0 + $1.commandsInFlight } }
    }

    /// Serves `engine`'s hub on `addresses` while this value lives (or until `stop()`): `home serve --listen`. With a
    /// token, every request (`/info` too) must present it; without one, only loopback addresses are served.
    /// `clock` times how long a connection may take to send its request head (`HTTPHeadGate`).
    /// `threadBorderRouterAPIs`: OpenThread border-router REST APIs (`http://HOST:8081`) Thread diagnostics are
    /// collected from, beside those of the border routers heard by DNS-SD.
    /// `dashboardAddresses`: listeners of their own that serve the dashboard alone (`home serve --dashboard`).
    public init(
        engine: HubEngine, listeningOn addresses: [SocketAddress], dashboardAddresses: [SocketAddress] = [],
        token: MatterServerToken?, grant: HubRights? = nil, threadBorderRouterAPIs: [String] = [],
        clock: any DriverClock = SystemClock()
    ) throws(HomeError) {
        if token == nil, let open = (addresses + dashboardAddresses).first(where: { !$0.isLoopback }) {
            throw HomeError(
                .invalidArgument,
                "listening on \(open), beyond loopback, needs a token that clients present (a token file): the "
                    + "Matter-server API drives every device of the home")
        }
        let threadBorderRouterAPIs = try threadBorderRouterAPIs.map { text throws(HomeError) in
            guard let base = OpenThreadRESTCollector.base(text) else {
                throw HomeError(
                    .invalidArgument,
                    "\(text) is no border router's REST API: give http://HOST:PORT (OpenThread's listens on 8081)")
            }
            return base
        }
        let authority = engine.hub.authority
        // Home Assistant's Bluetooth proxies (and virtual devices fresh from their box) connect to /ble: the hub
        // commissions over Bluetooth LE through them.
        let bleProxy = BLEProxyCentral(clock: SystemClock())
        engine.useBluetoothProxy(bleProxy)
        let caller = Self.clientCaller(token: token, grant: grant)
        let wrongTokens = WrongTokens()
        let clients = MatterServerClients(
            caller: caller, wrongTokens: wrongTokens,
            info: MatterServerInfo(
                fabricID: authority.fabricID, compressedFabricID: authority.compressedFabricIDNumber),
            bleProxy: bleProxy, waitingHeads: WaitingHeads(clock: clock, limits: .init()),
            uploads: OTAUploads(directory: engine.hub.directory.path + "/ota-uploads", clock: clock),
            threadDiagnostics: ThreadDiagnosticsSources(named: threadBorderRouterAPIs),
            dashboard: Dashboard(engine: engine, token: token, caller: caller, wrongTokens: wrongTokens))
        // What the hub holds of network credentials, as server_info says it (set_wifi_credentials keeps it current).
        Task { [store = engine.hub.store, info = clients.info] in
            if let (wifi, thread) = try? await store.networkCredentials() {
                info.credentialsSet(wifi: wifi != nil, thread: thread != nil)
            }
        }
        self.clients = clients
        // Whether Bluetooth LE reaches a device, read at the start and again each time a proxy becomes ready or the
        // last one goes, and each time the hub's adapter is powered on or off, one reading after another; a change is
        // told to every listening client.
        let (rechecks, recheck) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let bluetoothWatch = Task { [info = clients.info] in
            for await _ in rechecks {
                if info.bluetoothSet(await engine.availableBluetooth != nil) { clients.broadcastServerInfo() }
            }
        }
        self.bluetoothWatch = bluetoothWatch
        adapterWatch = engine.watchBluetoothAdapter { recheck.yield() }
        recheck.yield()
        Task { await bleProxy.observeAvailability { _ in recheck.yield() } }
        var listeners: [TCPListener] = []
        let surfaces =
            addresses.map { ($0, MatterServerClient.Surface.everything) }
            + dashboardAddresses.map { ($0, MatterServerClient.Surface.dashboard) }
        for (address, surface) in surfaces {
            do {
                listeners.append(
                    try TCPListener(address: address) { connection in
                        // Every connection is a stranger until its head is whole: held to the head's limits.
                        guard clients.waitingHeads.admit(connection) else { return }
                        let client = MatterServerClient(
                            connection: connection, engine: engine, token: token, peers: clients, surface: surface)
                        let id = ObjectIdentifier(connection)
                        clients.clients.withLock { $0[id] = client }
                        connection.start(received: client.received) {
                            clients.waitingHeads.leave(id)
                            clients.clients.withLock { $0.removeValue(forKey: id) }?.closed()
                        }
                    })
            } catch {
                for listener in listeners { listener.close() }
                bluetoothWatch.cancel()
                throw HomeError(.unavailable, "cannot serve the Matter-server API on \(address): \(error)")
            }
        }
        self.listeners = listeners
    }

    /// What a client of this door may do beyond seeing and controlling devices, unless `home serve --api-grant` says
    /// otherwise. Without a token, whoever reaches loopback (any local user or process) adds and removes devices and
    /// updates their firmware, which Home Assistant's Matter integration does, but shares nothing, administers
    /// nothing and keeps no network secret; with one, its holder is whom the owner gave the token: every right.
    /// Granting rights to others stays the owner's, through `hub.socket`.
    static func defaultRights(token: MatterServerToken?) -> HubRights {
        token == nil ? .devices : .all
    }

    /// The principal every client of this door acts as.
    static func clientCaller(token: MatterServerToken?, grant: HubRights?) -> HubCaller {
        HubCaller(
            client: HubClientPrincipal(
                name: token == nil ? "a client of the hub's loopback listener" : "a holder of the API's token",
                rights: grant ?? defaultRights(token: token)))
    }

    /// Stops listening and closes every client.
    /// Listening clients are told `server_shutdown` first.
    public func stop() {
        bluetoothWatch.cancel()
        adapterWatch?()
        clients.topology.stop()
        for listener in listeners { listener.close() }
        for client in clients.clients.withLock({ Array($0.values) }) { client.shutDown() }
    }

    deinit { stop() }

}

/// `server_info` as python-matter-server sends it: the compressed fabric ID as a plain 64-bit integer, which Home
/// Assistant builds its device IDs from, whether the hub holds Wi-Fi credentials and a Thread dataset, and whether
/// Bluetooth LE reaches a device now (a connected BLE proxy, or the hub's adapter); `ble_proxy_enabled` says that
/// `/ble` is offered, which is what a proxy connects on.
final class MatterServerInfo: Sendable {
    let fabricID: UInt64
    let compressedFabricID: UInt64
    private let credentials = Mutex((wifi: false, thread: false, bluetooth: false))

    init(fabricID: UInt64, compressedFabricID: UInt64) {
        self.fabricID = fabricID
        self.compressedFabricID = compressedFabricID
    }

    /// Records which credentials the hub holds now.
    func credentialsSet(wifi: Bool? = nil, thread: Bool? = nil) {
        credentials.withLock { set in
            if let wifi { set.wifi = wifi }
            if let thread { set.thread = thread }
        }
    }

    /// Records whether Bluetooth LE reaches a device now; whether that changed.
    func bluetoothSet(_ reachable: Bool) -> Bool {
        credentials.withLock { set in
            defer { set.bluetooth = reachable }
            return set.bluetooth != reachable
        }
    }

    var json: String {
        let set = credentials.withLock { $0 }
        return """
            {"fabric_id": \(fabricID), "compressed_fabric_id": \(compressedFabricID), \
            "schema_version": \(MatterServerAPI.schemaVersion), \
            "min_supported_schema_version": \(MatterServerAPI.minimumSchemaVersion), "sdk_version": "swift-home", \
            "wifi_credentials_set": \(set.wifi), "thread_credentials_set": \(set.thread), \
            "bluetooth_enabled": \(set.bluetooth), \
            "ble_proxy_enabled": true}
            """
    }
}

/// One client of the API: its HTTP head until it asks for the WebSocket, then its WebSocket; once it has asked
/// `start_listening`, the model's changes as the protocol's events.
/// The clients connected now: to close them when the API stops, and to tell every one of them what one client's
/// command did (a node interviewed, test nodes imported); and the test nodes they share.
final class MatterServerClients: Sendable {
    /// Who every client of the door acts as.
    let caller: HubCaller
    /// Wrong tokens by host, on every route that takes one.
    let wrongTokens: WrongTokens
    let clients = Mutex<[ObjectIdentifier: MatterServerClient]>([:])
    let testNodes = MatterServerTestNodes()
    let info: MatterServerInfo
    /// The BLE proxy clients connected to `/ble`, as one Bluetooth central.
    let bleProxy: BLEProxyCentral
    /// The connections still sending their request head.
    let waitingHeads: WaitingHeads

    /// Firmware images uploaded over HTTP (schema 13).
    let uploads: OTAUploads
    /// The network topology as last sent, and the border routers last heard (schema 13).
    let topology = TopologyFeed()
    /// Where Thread diagnostics come from, and the batches last collected (schema 12).
    let threadDiagnostics: ThreadDiagnosticsSources
    /// The web dashboard served beside the API.
    let dashboard: Dashboard

    init(
        caller: HubCaller, wrongTokens: WrongTokens, info: MatterServerInfo, bleProxy: BLEProxyCentral,
        waitingHeads: WaitingHeads,
        uploads: OTAUploads,
        threadDiagnostics: ThreadDiagnosticsSources, dashboard: Dashboard
    ) {
        self.caller = caller
        self.wrongTokens = wrongTokens
        self.dashboard = dashboard
        self.threadDiagnostics = threadDiagnostics
        self.info = info
        self.bleProxy = bleProxy
        self.waitingHeads = waitingHeads
        self.uploads = uploads
    }

    func interviewed(_ nodeID: UInt64) {
        for client in clients.withLock({ Array($0.values) }) { client.sendNode(nodeID) }
    }

    /// `network_topology_updated`, to the listening clients that asked for the topology.
    func broadcastTopology(_ event: String) {
        for client in clients.withLock({ Array($0.values) }) where client.hearsTopology.withLock({ $0 }) {
            client.sendIfListening(event)
        }
    }

    /// `thread_diagnostics_updated`, to the listening clients that made a Thread request (schema 12's opt-in).
    func broadcastThreadDiagnostics(_ event: String) {
        for client in clients.withLock({ Array($0.values) }) where client.hearsThreadDiagnostics.withLock({ $0 }) {
            client.sendIfListening(event)
        }
    }

    /// `server_info_updated`, to every listening client: the credentials the hub holds changed.
    func broadcastServerInfo() {
        broadcast("{\"event\": \"server_info_updated\", \"data\": \(info.json)}")
    }

    /// An event (about a test node, the server's info), to every listening client.
    func broadcast(_ event: String) {
        for client in clients.withLock({ Array($0.values) }) { client.sendIfListening(event) }
    }
}

final class MatterServerClient: Sendable {
    enum Phase {
        /// Whether the connection is still a stranger's, held to the head gate's deadline and places: until its head
        /// and, for a form (the sign-in), its body are whole.
        var isStranger: Bool {
            switch self {
            case .head, .form: true
            default: false
            }
        }

        case head([UInt8])
        case webSocket(WebSocketConnection)
        /// A dashboard form's body coming in (the sign-in): what it is for, and the bytes so far.
        case form(HTTPRequestHead, DashboardRoute, [UInt8], length: Int)
        /// The dashboard page's live connection.
        case dashboard(WebSocketConnection, DashboardSocket)
        /// A BLE proxy client on `/ble`: its frames go, in order, to the hub's BLE proxy central through `inbox`.
        case bleProxy(WebSocketConnection, inbox: AsyncStream<BLEProxyInbox>.Continuation)
        /// A firmware image's body coming in (`POST /ota-upload/<id>`).
        case upload(Upload)
        case done
    }

    /// What a BLE proxy client's connection hands the central, in the order it came.
    enum BLEProxyInbox {
        case frame(BLEProxyFrame)
        /// Bytes came (a pong among them): the client is alive.
        case heard
    }

    /// What the client has been sent of the home, once it listens: the nodes it knows (no event may name another,
    /// facts §9.3).
    struct Listening {
        var known: [UInt64: KnownNode]
        let task: Task<Void, Never>
    }

    /// A node as the client was last told of it: whether available, and its endpoints (a bridge adds and drops
    /// some; the client hears of those as endpoint_added and endpoint_removed).
    struct KnownNode {
        var available: Bool
        var endpoints: Set<UInt16>

        init(_ nodeID: UInt64, _ snapshot: HomeModel.Snapshot) {
            available = MatterServerNodes.isAvailable(nodeID, snapshot)
            endpoints = MatterServerNodes.endpoints(nodeID, snapshot)
        }
    }

    let connection: StreamConnection
    let engine: HubEngine
    private let token: MatterServerToken?
    /// What its listener serves.
    enum Surface: Sendable {
        /// The API, `/ble`, uploads and the dashboard.
        case everything
        /// The dashboard alone (`home serve --dashboard`).
        case dashboard
    }

    let surface: Surface
    let peers: MatterServerClients
    let phase = Mutex(Phase.head([]))
    /// A dashboard socket just opened: started once its upgrade is written, so its welcome comes after.
    let dashboardToStart = Mutex<DashboardSocket?>(nil)
    let listening = Mutex<Listening?>(nil)
    /// Whether it asked `get_network_topology`: only then does it hear `network_topology_updated` (schema 13's
    /// opt-in, so an older client never receives an event it cannot read).
    let hearsTopology = Mutex(false)
    /// Whether it made a Thread request (`get_thread_diagnostics`, `get_thread_border_routers`): only then does it hear
    /// `thread_diagnostics_updated` (schema 12's opt-in).
    let hearsThreadDiagnostics = Mutex(false)
    private let inFlight = Mutex(InFlight())

    /// Commands that answer later (a commissioning, an interview, a ping) a client may have at work at once: Home
    /// Assistant has a few (a ping of each node at its start is the most); one that sends more without waiting for
    /// answers is told so, and cannot grow the hub's tasks without end.
    static let commandsAtOnce = 64

    /// The commands of this client still at work, and whether it is gone (a command after that is not started).
    private struct InFlight {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var lastID: UInt64 = 0
        var isClosed = false
    }

    init(
        connection: StreamConnection, engine: HubEngine, token: MatterServerToken?, peers: MatterServerClients,
        surface: Surface = .everything
    ) {
        self.peers = peers
        self.connection = connection
        self.engine = engine
        self.token = token
        self.surface = surface
    }

    /// On the loop's thread, in the order the bytes came: commands are answered in that order (start_listening's
    /// result straight after its request, §9.1), the slow ones later, by message_id.
    func received(_ bytes: [UInt8]) {
        let (writes, close, commands, headEnded) = phase.withLock { phase in
            let wasStranger = phase.isStranger
            let (writes, close, commands) = take(bytes, &phase)
            return (writes, close, commands, wasStranger && !phase.isStranger)
        }
        if headEnded { peers.waitingHeads.leave(ObjectIdentifier(connection)) }
        for bytes in writes { connection.send(bytes) }
        if close { connection.closeAfterWrites() }
        if let socket = dashboardToStart.withLock({ socket in
            defer { socket = nil }; return socket
        }) {
            socket.start()
        }
        for command in commands { handle(command) }
    }

    /// The connection is gone: its events stop, and so does every command still at work for it.
    func closed() {
        let (upload, dashboard) = phase.withLock { phase -> (Upload?, DashboardSocket?) in
            defer { phase = .done }
            switch phase {
            case .bleProxy(_, let inbox):
                inbox.finish()
                return (nil, nil)
            case .upload(let upload): return (upload, nil)
            case .dashboard(_, let socket): return (nil, socket)
            default: return (nil, nil)
            }
        }
        dashboard?.closed()
        // A client gone halfway through its upload: the place and the file go with it.
        if let upload {
            Glibc.close(upload.descriptor)
            peers.uploads.release(upload.id)
        }
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
    func work(_ body: @escaping @Sendable () async -> Void) {
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
        let snapshot = engine.model.snapshot
        guard listening.withLock({ $0?.known[nodeID] != nil }), let node = MatterServerNodes.node(nodeID, snapshot)
        else { return }
        send(Self.event("node_updated", node))
    }

    func sendIfListening(_ text: String) {
        if listening.withLock({ $0 != nil }) { send(text) }
    }

    /// Sends one text frame, unless the WebSocket is closing.
    func send(_ text: String) {
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
        case .upload(let upload):
            phase = continueUpload(upload, with: bytes).map(Phase.upload) ?? .done
            return ([], false, [])
        case .form(let request, let route, let body, let length):
            return continueForm(request, route, body + bytes, length: length, &phase)
        case .dashboard(var webSocket, let socket):
            let (writes, close) = carryOutDashboard(webSocket.receive(bytes), &webSocket, socket)
            phase = webSocket.isClosed ? .done : .dashboard(webSocket, socket)
            // Its work ends with the connection (`closed`, which comes once the close is written).
            return (writes, close || webSocket.isClosed, [])
        case .bleProxy(var webSocket, let inbox):
            inbox.yield(.heard)
            let (writes, close) = carryOutProxy(webSocket.receive(bytes), inbox)
            phase = webSocket.isClosed ? .done : .bleProxy(webSocket, inbox: inbox)
            if webSocket.isClosed { inbox.finish() }
            return (writes, close, [])
        }
    }

    /// What the API serves over HTTP: its info, and the WebSocket of its commands.
    private enum Route: Sendable {
        case info
        case webSocket
        case bleProxy
        case otaUpload
        case dashboard(DashboardRoute)
    }

    private static let router: HTTPRouter<Route> = {
        var router = HTTPRouter<Route>(notFoundHint: "the API is at /ws, the dashboard at /")
        router.add("GET", "/info", .info)
        router.add("GET", "/ws", .webSocket)
        router.add("GET", "/ble", .bleProxy)
        router.add("POST", pathsUnder: uploadPathPrefix, .otaUpload)
        addDashboard(to: &router)
        return router
    }()

    /// A listener of the dashboard's own serves nothing else.
    private static let dashboardRouter: HTTPRouter<Route> = {
        var router = HTTPRouter<Route>(notFoundHint: "this listener serves the dashboard, at /")
        addDashboard(to: &router)
        return router
    }()

    private static func addDashboard(to router: inout HTTPRouter<Route>) {
        for (method, path, route) in DashboardRoute.all {
            if path.hasSuffix("/"), path != "/" {
                router.add(method, pathsUnder: path, .dashboard(route))
            } else {
                router.add(method, path, .dashboard(route))
            }
        }
    }

    private func open(
        _ request: HTTPRequestHead, rest: [UInt8], _ phase: inout Phase
    ) -> ([[UInt8]], Bool, [String]) {
        let route: Route
        switch (surface == .dashboard ? Self.dashboardRouter : Self.router).match(request) {
        case .route(let matched): route = matched
        case .refused(let response) where response.status == 405:
            phase = .done
            return ([response.bytes], true, [])
        case .refused(let response):
            // Unknown paths are told apart only to a client that may use the API.
            phase = .done
            return ([(tokenRefusal(request, inQuery: false) ?? response).bytes], true, [])
        }
        // The dashboard's pages answer to its own sign-in, not the API's token.
        if case .dashboard(let page) = route { return openDashboard(page, request, rest: rest, &phase) }
        // Without a token only a loopback Host is served: a page elsewhere whose name was pointed at 127.0.0.1 (DNS
        // rebinding) is its own origin, and would pass the check below.
        if token == nil, !DashboardAccess.namesLoopback(request.field("host")) {
            phase = .done
            return (
                [
                    HTTPError(403, "without a token this hub serves loopback names only (127.0.0.1, [::1], localhost)")
                        .response.bytes
                ], true, []
            )
        }
        // A page of another site may not drive the API from a browser on this computer or network.
        if let origin = request.field("origin"), !DashboardAccess.isSameOrigin(request) {
            phase = .done
            return (
                [HTTPError(403, "requests from a web page of \(origin.prefix(64)) are refused").response.bytes], true,
                []
            )
        }
        // In a URL only where the client has nowhere else to put it: Home Assistant's Matter client and BLE proxies
        // are given a WebSocket URL and no header.
        let inQuery =
            switch route {
            case .webSocket, .bleProxy: true
            default: false
            }
        if let refusal = tokenRefusal(request, inQuery: inQuery) {
            phase = .done
            return ([refusal.bytes], true, [])
        }
        switch route {
        case .info:
            phase = .done
            let response = HTTPResponse(
                status: 200, fields: [HTTPField("Content-Type", "application/json"), HTTPField("Connection", "close")],
                body: Array(peers.info.json.utf8))
            return ([response.bytes], true, [])
        case .webSocket:
            do throws(HTTPError) {
                let upgrade = try WebSocketHandshake.accept(request)
                var webSocket = WebSocketConnection()
                // server_info goes first, unprompted; then whatever the client sent behind its request.
                let (writes, close, commands) = carryOut(
                    webSocket.send(text: peers.info.json) + webSocket.receive(rest), &webSocket)
                phase = webSocket.isClosed ? .done : .webSocket(webSocket)
                return ([upgrade.bytes] + writes, close, commands)
            } catch {
                phase = .done
                return ([error.handshakeResponse.bytes], true, [])
            }
        case .otaUpload:
            do throws(HTTPUploadRefusal) {
                let upload = try beginUpload(request)
                phase = .upload(upload)
                if !rest.isEmpty || upload.remaining == 0 {
                    phase = continueUpload(upload, with: rest).map(Phase.upload) ?? .done
                }
                return ([], false, [])
            } catch {
                phase = .done
                answerUpload(error)
                return ([], false, [])
            }
        case .dashboard:
            return ([], true, [])
        case .bleProxy:
            do throws(HTTPError) {
                let upgrade = try WebSocketHandshake.accept(request)
                var webSocket = WebSocketConnection()
                let (events, inbox) = AsyncStream<BLEProxyInbox>.makeStream()
                serveBLEProxy(events)
                let (writes, close) = carryOutProxy(webSocket.receive(rest), inbox)
                phase = webSocket.isClosed ? .done : .bleProxy(webSocket, inbox: inbox)
                return ([upgrade.bytes] + writes, close, [])
            } catch {
                phase = .done
                return ([error.handshakeResponse.bytes], true, [])
            }
        }
    }

    /// The client joins the hub's BLE proxy central, which hears its frames in order until it is gone.
    private func serveBLEProxy(_ events: AsyncStream<BLEProxyInbox>) {
        let central = peers.bleProxy
        let channel = BLEProxyCentral.ClientChannel(
            send: { [weak self] frame in self?.sendProxy(frame) },
            ping: { [weak self] in self?.pingProxy() },
            close: { [weak self] reason in self?.closeProxy(reason) })
        Task {
            let id = await central.connected(channel)
            for await event in events {
                switch event {
                case .frame(let frame): await central.received(frame, from: id)
                case .heard: await central.heard(id)
                }
            }
            await central.closed(id)
        }
    }

    private func carryOutProxy(
        _ actions: [WebSocketConnection.Action], _ inbox: AsyncStream<BLEProxyInbox>.Continuation
    ) -> ([[UInt8]], Bool) {
        var writes: [[UInt8]] = []
        var close = false
        for action in actions {
            switch action {
            case .write(let bytes): writes.append(bytes)
            case .closeConnection: close = true
            case .deliver(.text(let text)): inbox.yield(.frame(.text(text)))
            case .deliver(.binary(let bytes)): inbox.yield(.frame(.binary(bytes)))
            }
        }
        return (writes, close)
    }

    /// Does `body` to a BLE proxy client's WebSocket and writes what it says to.
    private func withProxySocket(_ body: (inout WebSocketConnection) -> [WebSocketConnection.Action]) {
        let writes = phase.withLock { phase -> [[UInt8]] in
            guard case .bleProxy(var webSocket, let inbox) = phase else { return [] }
            let actions = body(&webSocket)
            phase = .bleProxy(webSocket, inbox: inbox)
            return Self.writes(of: actions)
        }
        for bytes in writes { connection.send(bytes) }
    }

    private func sendProxy(_ frame: BLEProxyFrame) {
        withProxySocket { webSocket in
            switch frame {
            case .text(let text): webSocket.send(text: text)
            case .binary(let bytes): webSocket.send(binary: bytes)
            }
        }
    }

    private func pingProxy() {
        withProxySocket { $0.ping() }
    }

    /// The central ends the client (no hello, another version, silence): a Close, then the connection.
    private func closeProxy(_ reason: String) {
        withProxySocket { $0.close(.policyViolation, reason: reason) }
        connection.closeAfterWrites()
    }

    /// Why a request that needs the token is refused, or nil when it presents it (or none is asked). A wrong one is
    /// counted against its host, which past `WrongTokens.limit` is refused whatever it presents.
    private func tokenRefusal(_ request: HTTPRequestHead, inQuery: Bool) -> HTTPResponse? {
        guard let token else { return nil }
        if peers.wrongTokens.isRefused(host) { return HTTPError(429, WrongTokens.refusal).response }
        switch token.presentation(in: request, inQuery: inQuery) {
        case .right: return nil
        case .wrong:
            peers.wrongTokens.record(host)
            return Self.unauthorized(inQuery: inQuery)
        case .absent: return Self.unauthorized(inQuery: inQuery)
        }
    }

    private static func unauthorized(inQuery: Bool) -> HTTPResponse {
        var refusal = HTTPError(
            401,
            inQuery
                ? "present the API's token: Authorization: Bearer …, or ?token=…"
                : "present the API's token: Authorization: Bearer … (a URL's ?token= is taken on /ws and /ble only)"
        ).response
        refusal.fields.append(HTTPField("WWW-Authenticate", "Bearer"))
        return refusal
    }

    /// A WebSocket's actions: what to write, whether to close, and the text frames that came (a binary frame is
    /// refused: commands and the dashboard's actions are JSON text).
    func carryOut(
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

    static func writes(of actions: [WebSocketConnection.Action]) -> [[UInt8]] {
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
        guard commandsInFlight < Self.commandsAtOnce else {
            return send(
                Self.error(
                    id, .unknown,
                    "\(Self.commandsAtOnce) commands of this client are still at work: wait for their answers first"))
        }
        if let nodeID = request.args["node_id"]?.unsigned, let test = peers.testNodes[nodeID] {
            return handle(command, id, request.args, testNode: nodeID, test)
        }
        guard let run = Self.commands[command] else {
            return send(Self.error(id, .invalidCommand, "Invalid command: \(command)"))
        }
        run.run(self, id, request.args)
    }

    /// Who the API's commands act as: the door's clients, as `home serve` gave them rights.
    var caller: HubCaller { peers.caller }

    // MARK: Envelopes

    static func reply(_ messageID: String, _ result: String) -> String {
        #"{"message_id": \#(quoted(messageID)), "result": \#(result)}"#
    }

    static func event(_ name: String, _ data: JSONValue) -> String {
        #"{"event": \#(quoted(name)), "data": \#(data.rendered)}"#
    }

    static func error(_ messageID: String, _ error: MatterServerError) -> String {
        #"{"message_id": \#(quoted(messageID)), "error_code": \#(error.code.rawValue), "details": \#(quoted(error.details))}"#
    }

    static func error(_ messageID: String, _ code: MatterServerError.Code, _ details: String) -> String {
        error(messageID, MatterServerError(code, details))
    }

    static func missing(_ messageID: String, _ argument: String) -> String {
        error(messageID, .missing(argument))
    }

    static func unknownNode(_ messageID: String, _ nodeID: UInt64) -> String {
        error(messageID, .unknownNode(nodeID))
    }

    static func quoted(_ text: String) -> String {
        JSONValue.string(text).rendered
    }
}

extension HomeModel.Update {
    var isFellBehind: Bool {
        if case .fellBehind = self { return true }
        return false
    }
}
