import Foundation
import HomeEngine
import HomeHub
import MatterCrypto
import MatterPlatform
import Synchronization

/// The home: its structures, rooms and devices, through the one hub of its state directory: the process serving it
/// (`home serve`, or another app), or this process, which then serves it for as long as the `Home` lives.
///
///     Home.configure { $0.sharedAppGroup = "group.example.home" }
///     let home = try await Home.connect()
///     for device in try await home.devices().list() { print(device.name) }
public final class Home: Sendable {
    private static let configuration = Mutex(Configuration())
    let context: HomeContext
    /// While this process is the home's hub: the lock that says so, and the socket its clients use.
    let serving: (lock: ServingLock, service: HubService)?

    private init(context: HomeContext, serving: (lock: ServingLock, service: HubService)? = nil) {
        self.context = context
        self.serving = serving
    }

    deinit {
        serving?.service.stop()
        context.close()
        // The hub's node goes with its last `Home`: its advertisements withdrawn, its sockets closed.
        if case .embedded(let engine) = context.backend { Task { await engine.close() } }
    }

    /// The home model this `Home` reads: for the benchmarks, which feed it reports as a node's connection does.
    @_spi(HomeModel) public var model: HomeModel { context.model }

    /// Sets where later `connect()` calls find the hub's state.
    public static func configure(_ change: (inout Configuration) -> Void) {
        configuration.withLock { change(&$0) }
    }

    /// Connects to the embedded hub as `configure` set it up, on its state directory or on the default one.
    public static func connect() async throws(HomeError) -> Home {
        try await connect(configuration.withLock { $0 })
    }

    /// Connects to the embedded hub on an explicit state directory, created (owner-only) when absent. Discovery
    /// settings (`networkInterfaces`, `paaTrustStore`) come from the configuration.
    public static func connect(stateDirectory: String) async throws(HomeError) -> Home {
        var current = configuration.withLock { $0 }
        current.sharedAppGroup = nil
        current.stateDirectory = stateDirectory
        return try await connect(current)
    }

    /// Connects to the hub of the home `configuration` names. When a process serves it (`home serve`, or another
    /// app), this `Home` is that hub's client: its model is mirrored here and every change goes to the hub. When
    /// none does, this process becomes the hub, for as long as the `Home` lives: it takes the home's serving lock,
    /// opens the store and the keys, and serves the home's socket, so the next process attaches to it instead of
    /// opening sessions of its own. A device an interrupted commissioning left holding the hub's fabric is then
    /// finished in the background (`Hub.finishInterruptedCommissionings`): its devices appear in the live queries
    /// like any other change. OpenSSL's state is kept to the end of the process (`OpenSSLProcess`), so a process that
    /// exits while such background work runs does not crash.
    public static func connect(_ configuration: Configuration) async throws(HomeError) -> Home {
        OpenSSLProcess.keepStateUntilExit()
        // A client needs nothing but the socket: a hub serving the directory is asked first, before anything of the
        // directory is checked or created (another user's home, shared with --socket-group, is not ours to write).
        let path = try statePath(configuration)
        if let client = try await HubClient.attach(stateDirectory: path) {
            return Home(context: HomeContext(client: client))
        }
        let directory: StateDirectory
        do {
            directory = try StateDirectory(creating: path)
        } catch {
            throw HomeError(error)
        }
        var holder: Int32?
        for attempt in 0..<HomeTiming.hubStartAttempts {
            if attempt > 0 {
                try? await Task.sleep(for: HomeTiming.hubStartRetry)
                if let client = try await HubClient.attach(stateDirectory: directory.path) {
                    return Home(context: HomeContext(client: client))
                }
            }
            let lock: ServingLock
            do {
                lock = try ServingLock(directory: directory.path)
            } catch .held(_, let pid) {
                // Its holder is starting up (the lock taken, its socket not bound yet), or ending.
                holder = pid
                continue
            } catch {
                throw HomeError(.unavailable, "\(error)")
            }
            let home = try await open(statePath: directory.path, configuration: configuration, lock: lock)
            if case .embedded(let engine) = home.context.backend {
                let interfaces = configuration.networkInterfaces
                Task { _ = await engine.hub.finishInterruptedCommissionings(interfaces: interfaces) }
            }
            return home
        }
        throw HomeError(
            .unavailable,
            "a hub\(holder.map { " (PID \($0))" } ?? "") holds \(directory.path) but does not answer on its socket")
    }

    /// The hub serving this home: this process or the one it is attached to.
    public func hubStatus() async throws(HomeError) -> HubStatus {
        guard case .status(let status) = try await context.perform(.status) else {
            throw HomeError(.internal, "the hub answered its status with something else")
        }
        return status
    }

    /// The hub serving the home `configuration` names, attached to; nil when no process serves it (this process does
    /// not become its hub): for `home status`.
    @_spi(HomeCommandLine) public static func attachToServingHub(
        _ configuration: Configuration
    ) async throws(HomeError)
        -> Home?
    {
        try await HubClient.attach(stateDirectory: try statePath(configuration)).map {
            Home(context: HomeContext(client: $0))
        }
    }

    /// The state directory `configuration` names, as a path: nothing is checked or created.
    private static func statePath(_ configuration: Configuration) throws(HomeError) -> String {
        let environment = ProcessInfo.processInfo.environment
        let explicitPath = try configuration.statePath(environment: environment)
        do {
            return try StateDirectory.resolve(explicitPath: explicitPath, environment: environment)
        } catch {
            throw HomeError(error)
        }
    }

    /// `home commission`: commissions a device onto the hub's fabric outside an add-device session (the caller must
    /// be allowed to add devices to the default structure), telling each step as it ends.
    @_spi(HomeCommandLine) public func commissionDevice(
        payload: String, address: SocketAddress?, interfaces: [String], paaTrustStore: String?,
        acceptUntrustedDevice: Bool, name: String?, room: String?,
        progress: @escaping @Sendable (HubProgress) -> Void
    ) async throws(HomeError) -> CommissionedDevice {
        let request = HubRequest.DirectCommissioning(
            payload: payload, address: address, interfaces: interfaces, paaTrustStore: paaTrustStore,
            acceptUntrustedDevice: acceptUntrustedDevice, name: name, room: room)
        guard case .commissioned(let device) = try await context.perform(.commissionDevice(request), progress: progress)
        else { throw HomeError(.internal, "the hub answered commissioning with something else") }
        return device
    }

    /// `home ping`: a CASE session to the device's node from scratch (besides the hub's own), then `reads` reads of
    /// its vendor name over it.
    @_spi(HomeCommandLine) public func ping(
        _ device: HomeDevice, reads: Int
    ) async throws(HomeError) -> (
        address: SocketAddress, vendorName: String, session: Duration, roundTrips: [Duration]
    ) {
        guard
            case .pinged(let address, let vendorName, let session, let roundTrips) = try await context.perform(
                .ping(nodeID: device.address.nodeID, reads: reads))
        else { throw HomeError(.internal, "the hub answered a ping with something else") }
        return (
            address, vendorName, .nanoseconds(Int64(session * 1e9)), roundTrips.map { .nanoseconds(Int64($0 * 1e9)) }
        )
    }

    /// The hub engine this process runs for the home while it is the home's hub; nil for a client of another
    /// process's hub. What serves the home to other ecosystems (the Matter-server API) runs on it.
    public var engine: HubEngine? {
        if case .embedded(let engine) = context.backend { return engine }
        return nil
    }

    /// Whether another process is this home's hub (and this `Home` its client).
    public var isAttachedToHub: Bool {
        if case .attached = context.backend { return true }
        return false
    }

    /// The hub embedded in this process; with `lock` (the home's serving lock, taken), it also serves the home's
    /// socket.
    static func open(
        statePath: String?, configuration: Configuration, callerUID: UInt32 = getuid(), lock: ServingLock? = nil
    ) async throws(HomeError) -> Home {
        let context: HomeContext
        do {
            let hub = try await Hub(statePath: statePath)
            let settings = CommissioningSettings(
                interfaces: configuration.networkInterfaces,
                paaTrustStore: configuration.paaTrustStore ?? hub.directory.path + "/paa",
                address: configuration.commissioningAddress, callerUID: callerUID)
            context = HomeContext(
                engine: try await HubEngine(
                    hub: hub, interfaces: configuration.networkInterfaces, settings: configuration.connectionSettings,
                    commissioning: settings))
        } catch {
            throw HomeError(opening: error)
        }
        guard let lock, case .embedded(let engine) = context.backend else { return Home(context: context) }
        let service = try engine.serve(group: configuration.hubSocketGroup)
        return Home(context: context, serving: (lock, service))
    }

    /// Stops following devices live: every node's subscription and session end. A later subscription or command
    /// starts them again.
    public func disconnect() async {
        if case .embedded(let engine) = context.backend { await engine.stopFollowing() }
    }

    /// What happens on the hub's socket while this process serves it: clients connecting, refused and gone, and their
    /// requests, one line each; an empty sequence for a client `Home`.
    @_spi(HomeCommandLine) public var hubActivity: AsyncStream<String> {
        serving?.service.activity ?? AsyncStream { $0.finish() }
    }

    /// Stops being the home's hub, for `home serve` shutting down and each `home` command ending: its clients are
    /// disconnected (their calls fail `unavailable`), every node's subscription and session end, the hub's node
    /// withdraws its advertisements and closes its sockets, and the home's lock is released, so the next process
    /// becomes its hub at once. A client `Home` only disconnects.
    @_spi(HomeCommandLine) public func stopServing() async {
        serving?.service.stop()
        if case .embedded(let engine) = context.backend { await engine.close() }
        serving?.lock.release()
    }

    /// Follows every node of the home live, as the hub of a home that runs all day does, until `disconnect()`: each
    /// node's connection starts at once (at its last known address first), and a node added later is followed as
    /// soon as it appears. The hub's own node answers the devices of its fabric from the start, with or without any.
    /// Returns once every node present has had its first try.
    @_spi(HomeCommandLine) public func followEveryNode() async throws(HomeError) {
        try await context.embedded("following every node").followEveryNode()
    }

    /// One device per application endpoint: `devices(enableMultipartDevices: false)`.
    public func devices() -> Query<HomeDevice> {
        devices(enableMultipartDevices: false)
    }

    /// With `enableMultipartDevices`, one device per node, whose parts (endpoints) are reached through
    /// `types.getAll(of:)`; without, one device per application endpoint.
    public func devices(enableMultipartDevices: Bool) -> Query<HomeDevice> {
        context.query { context throws(HomeError) in context.devices(multipart: enableMultipartDevices) }
    }

    public func rooms() -> Query<Room> {
        context.query { context throws(HomeError) in
            Set(context.model.snapshot.rooms.map { Room($0, context: context) })
        }
    }

    public func structures() -> Query<Structure> {
        context.query { context throws(HomeError) in
            Set(context.model.snapshot.structures.map { Structure($0, context: context) })
        }
    }

    /// Creates a room in `structure`, or in the default structure. The name is cut to 60 Unicode code points; an empty
    /// or white-space name is an `invalidArgument` error, the name of an existing room (whatever its case) `alreadyExists`.
    public func createRoom(name: String, in structure: Structure? = nil) async throws(HomeError) -> Room {
        guard case .room(let created) = try await context.perform(.createRoom(name: name, structureID: structure?.id))
        else { throw HomeError(.internal, "the hub answered creating a room with something else") }
        return Room(created, context: context)
    }

    /// Deletes the room. Its devices stay in the home, in no room (and in the default structure).
    public func deleteRoom(_ room: Room) async throws(HomeError) {
        _ = try await context.perform(.deleteRoom(id: room.id))
    }

    /// Puts the device (every part of it, for a multipart device) in the room, and returns it moved; the value passed
    /// in stays as it was.
    public func move(device: HomeDevice, to room: Room) async throws(HomeError) -> HomeDevice {
        _ = try await context.perform(.moveDevices(device.parts, roomID: room.id))
        return device.with(room: room)
    }
}
