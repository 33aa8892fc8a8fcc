import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterPlatform
import MatterServer

/// `home serve`: the hub of a home that runs all day. It holds the home's serving lock (a second one is refused,
/// naming the first's PID), follows every node live from the start (last known address first, then operational
/// discovery on the named interfaces; each re-established with backoff for ever), prints one line per node state
/// change on standard error, and on SIGINT or SIGTERM closes every subscription and session and exits 0. It serves
/// the home on its local socket (`hub.socket` in the state directory, owner-only unless `--socket-group`): every
/// `Home.connect()` on the directory, the CLI's included, then uses this hub instead of opening sessions of its own.
enum ServeCommand {
    static let serve = CommandSpec(
        name: "serve",
        summary: "Run the hub: follow every device live until SIGINT or SIGTERM, one line per device state change.",
        options: [
            HubCommands.interfaceOption, HubCommands.stateOption,
            .init(
                name: "socket-group", valueName: "GROUP",
                help: "Let this group's members use the hub's socket too (default: its owner only)."),
            .init(
                name: "listen", valueName: "ADDRESS",
                help:
                    "Serve the Matter-server WebSocket API (Home Assistant's; python-matter-server's schema 11, matterjs-server's 13) at ws://ADDRESS/ws (e.g. 127.0.0.1:5580 or [::1]:5580), the BLE proxy endpoint at ws://ADDRESS/ble and the web dashboard at http://ADDRESS/; repeat it for several. Beyond loopback it needs --token-file."
            ),
            .init(
                name: "dashboard", valueName: "ADDRESS",
                help:
                    "Serve the web dashboard alone at http://ADDRESS/ (besides --listen's, which serves it too); repeat it for several. Beyond loopback it needs --token-file."
            ),
            .init(
                name: "bluetooth-adapter", valueName: "NAME",
                help:
                    "The local Bluetooth adapter (hci0), through BlueZ, that devices fresh from their box are commissioned over when no BLE proxy is connected."
            ),
            .init(
                name: "token-file", valueName: "FILE",
                help:
                    "The token every Matter-server API client must present (?token=… in its URL, or Authorization: Bearer …): the first line of FILE, 16 characters or more; FILE readable by its owner only."
            ),
            .init(
                name: "api-grant", valueName: "RIGHTS",
                help:
                    "What clients of --listen and --dashboard may do beyond seeing and controlling devices: some of devices (add, remove, update firmware), administer (share with another ecosystem, other fabrics, the data model's administrative commands and writes), network (keep Wi-Fi and Thread credentials), firmware (add images), comma-separated, or all, or none. Default: devices without --token-file, all with it."
            ),
            .init(
                name: "thread-rest", valueName: "URL",
                help:
                    "A Thread border router's REST API (OpenThread's, e.g. http://HOST:8081, as Home Assistant's OpenThread Border Router add-on serves it) that the Matter-server API's Thread diagnostics are collected from; border routers heard by DNS-SD are asked on port 8081 too. Repeat it for several."
            ),
            .init(
                name: "log-level", valueName: "LEVEL",
                help:
                    "error: failures only; info (the default): also each node's state changes; debug: also each client and request on the socket."
            ),
        ],
        run: { arguments throws(CommandLineError) in
            let interfaces = HubCommands.interfaceNames(arguments)
            let level =
                try arguments.values["log-level"].map { text throws(CommandLineError) in
                    guard let level = HubLogLevel(rawValue: text) else {
                        throw .invalidInput("log level '\(text)' is not one of error, info, debug")
                    }
                    return level
                } ?? .info
            let group = try arguments.values["socket-group"].map { name throws(CommandLineError) in
                guard let entry = getgrnam(name) else { throw .invalidInput("no group named '\(name)'") }
                return entry.pointee.gr_gid
            }
            let listen = try (arguments.repeatedValues["listen"] ?? []).map {
                text throws(CommandLineError) -> SocketAddress in try HubCommands.parseAddress(text)
            }
            let token = try arguments.values["token-file"].map { path throws(CommandLineError) in
                do throws(HomeError) {
                    return try MatterServerToken(contentsOf: path)
                } catch {
                    throw .invalidInput("--token-file: \(error.message)")
                }
            }
            let grant = try arguments.values["api-grant"].map { text throws(CommandLineError) in
                do throws(HomeError) {
                    return try HubRights(parsing: text)
                } catch {
                    throw .invalidInput("--api-grant: \(error.message)")
                }
            }
            let dashboard = try (arguments.repeatedValues["dashboard"] ?? []).map {
                text throws(CommandLineError) -> SocketAddress in try HubCommands.parseAddress(text)
            }
            if token == nil, let open = listen.first(where: { !$0.isLoopback }) {
                throw .invalidInput(
                    "--listen \(open): beyond loopback the Matter-server API needs a token its clients present: "
                        + "give --token-file FILE")
            }
            if token == nil, let open = dashboard.first(where: { !$0.isLoopback }) {
                throw .invalidInput(
                    "--dashboard \(open): beyond loopback the dashboard needs a token to sign in with: give --token-file FILE"
                )
            }
            if listen.isEmpty, dashboard.isEmpty, grant != nil {
                throw .invalidInput("--api-grant gives the clients of --listen and --dashboard rights: give one too")
            }
            if listen.isEmpty, arguments.repeatedValues["thread-rest"] != nil {
                throw .invalidInput(
                    "--thread-rest feeds the Matter-server API's Thread diagnostics: give --listen ADDRESS too")
            }
            let adapter = arguments.values["bluetooth-adapter"]
            if let adapter, adapter.isEmpty || adapter.contains("/") {
                throw .invalidInput("--bluetooth-adapter '\(adapter)' is no adapter name (hci0)")
            }
            var configuration = Home.Configuration(
                stateDirectory: arguments.values["state"], networkInterfaces: interfaces)
            configuration.hubSocketGroup = group
            let home: Home
            let status: HubStatus
            do throws(HomeError) {
                home = try await Home.connect(configuration)
                status = try await home.hubStatus()
            } catch {
                throw .invalidInput("cannot open the hub's state: \(error.message)")
            }
            guard let engine = home.hub.engine else {
                throw .failed("a hub already serves \(status.stateDirectory) (PID \(status.pid))")
            }
            if let adapter { engine.useBluetoothAdapter(adapter) }
            // Read at each line: a Matter-server client may change it while the hub runs (set_loglevel).
            engine.logLevel = level
            let progress = arguments.progress
            let say = { @Sendable (line: String) in if engine.logLevel >= .info { progress(line) } }
            let stop = StopSignals()
            let lines = ServeLines(model: home.hub.model)
            // Listening starts here, before any node is followed: a task's own start could come after the first
            // state change (a node offline at once), and that line would be lost.
            let changes = home.hub.model.changes(.home)
            let logger = Task { await lines.follow(changes, say) }
            let activity = home.hub.activity
            let clientLogger = Task {
                for await line in activity where engine.logLevel >= .debug {
                    progress("\(LiveLineText.time())  \(line)")
                }
            }
            let nodes = home.hub.model.snapshot.devices.count
            say("\(LiveLineText.time())  serving \(status.stateDirectory) (PID \(status.pid)): \(nodes) node(s)")
            say("\(LiveLineText.time())  clients connect at \(status.socketPath)")
            let matterServerAPI: MatterServerAPI?
            do throws(HomeError) {
                matterServerAPI =
                    listen.isEmpty && dashboard.isEmpty
                    ? nil
                    : try MatterServerAPI(
                        engine: engine, listeningOn: listen, dashboardAddresses: dashboard, token: token,
                        grant: grant, threadBorderRouterAPIs: arguments.repeatedValues["thread-rest"] ?? [])
                try await engine.followEveryNode()
            } catch {
                throw .failed(error.message)
            }
            if let api = matterServerAPI {
                say(
                    "\(LiveLineText.time())  its clients see and control devices, and hold the rights: \(api.clientRights)"
                )
            }
            for address in listen.isEmpty ? [] : matterServerAPI?.addresses.prefix(listen.count) ?? [] {
                say(
                    "\(LiveLineText.time())  Matter-server API at ws://\(address)/ws\(token == nil ? "" : " (token required)")"
                )
                say("\(LiveLineText.time())  BLE proxies connect at ws://\(address)/ble")
                say("\(LiveLineText.time())  the dashboard is at http://\(address)/")
            }
            for address in matterServerAPI?.addresses.dropFirst(listen.count) ?? [] {
                say("\(LiveLineText.time())  the dashboard alone is at http://\(address)/")
            }
            let signal = await stop.next()
            say("\(LiveLineText.time())  \(signal): closing every subscription and session")
            logger.cancel()
            matterServerAPI?.stop()
            await home.close()
            clientLogger.cancel()
            say("\(LiveLineText.time())  stopped")
            return .success("")
        }
    )
}

/// One line per node state change, from the home model: "13:04:32.171  node 391D788B9528D5FA (Desk lamp 1, Desk lamp
/// 2)  offline (subscription lost: no report for 10.051 s)".
struct ServeLines: Sendable {
    let model: HomeModel

    func follow(_ changes: HomeModel.Changes, _ say: @escaping @Sendable (String) -> Void) async {
        for await update in changes {
            guard case .changes(let changes) = update else { continue }
            for case .connectivity(let nodeID, let state) in changes where state != .connecting {
                say("\(LiveLineText.time())  \(label(nodeID))  \(state)")
            }
        }
    }

    private func label(_ nodeID: UInt64) -> String {
        LiveLineText.node(nodeID, deviceNames: model.devices(of: nodeID)?.map(\.name) ?? [])
    }
}

/// SIGINT and SIGTERM, turned from process-ending signals into an event the hub waits for, so it can shut down in
/// order.
final class StopSignals: Sendable {
    /// Only kept (to keep the handlers) and cancelled: never touched from two threads at once.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<String>

    init() {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.stream = stream
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            return source
        }
    }

    /// The name of the first signal that comes.
    func next() async -> String {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() ?? "end"
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
