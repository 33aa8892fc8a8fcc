import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
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

    private init(context: HomeContext) {
        self.context = context
    }

    deinit {
        context.close()
        // This `Home`'s hub goes with it (a later `Home` of this process is a client of it, and loses it): its socket
        // and lock now; its node's advertisements and sockets once what synchronous calls sent has reached it.
        context.hub.closeSoon(after: context.sentWithoutWaiting)
    }

    /// Where this `Home` reaches the home's hub: this process's engine, or another process's hub. What only a hub
    /// does (its model, its socket's activity, pings, serving other ecosystems) is reached through it.
    public var hub: HubConnection { context.hub }

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
    /// none does, this process becomes the hub, for as long as the `Home` lives (`HubConnection.connect`): it takes
    /// the home's serving lock, opens the store and the keys, and serves the home's socket, so the next process
    /// attaches to it instead of opening sessions of its own. A device an interrupted commissioning left holding the
    /// hub's fabric is then finished in the background: its devices appear in the live queries like any other change.
    public static func connect(_ configuration: Configuration) async throws(HomeError) -> Home {
        Home(
            context: HomeContext(
                hub: try await HubConnection.connect(
                    stateDirectory: try statePath(configuration), options: configuration.engineOptions)))
    }

    /// The hub serving this home: this process or the one it is attached to.
    public func hubStatus() async throws(HomeError) -> HubStatus {
        try await hub.status()
    }

    /// The state directory `configuration` names, as a path: nothing is checked or created.
    static func statePath(_ configuration: Configuration) throws(HomeError) -> String {
        let environment = ProcessInfo.processInfo.environment
        let explicitPath = try configuration.statePath(environment: environment)
        do {
            return try StateDirectory.resolve(explicitPath: explicitPath, environment: environment)
        } catch {
            throw HomeError(error)
        }
    }

    /// Whether another process is this home's hub (and this `Home` its client).
    public var isAttachedToHub: Bool { hub.engine == nil }

    /// A `Home` on an engine of its own that neither takes the home's lock nor serves its socket: for tests that open
    /// a hub beside another.
    static func open(
        statePath: String?, configuration: Configuration, callerUID: UInt32 = getuid()
    ) async throws(HomeError) -> Home {
        var options = configuration.engineOptions
        options.callerUID = callerUID
        return Home(context: HomeContext(hub: try await HubConnection.open(statePath: statePath, options: options)))
    }

    /// Ends this `Home`'s use of the hub, once what its synchronous calls sent (`completeMatterCommissioning()`) has
    /// reached it: a client only waits for that; when this process is the home's hub, its clients are disconnected,
    /// every node's subscription and session end, its node stops answering, and the home's lock is released, so the
    /// next process becomes the hub at once. For a process about to exit (each `home` command ends so).
    public func close() async {
        await context.settled()
        await hub.close()
    }

    /// Stops following devices live: every node's subscription and session end. A later subscription or command
    /// starts them again.
    public func disconnect() async {
        await hub.engine?.stopFollowing()
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
        Room(try await context.perform(CreateRoom(name: name, structureID: structure?.id)), context: context)
    }

    /// Deletes the room. Its devices stay in the home, in no room (and in the default structure).
    public func deleteRoom(_ room: Room) async throws(HomeError) {
        _ = try await context.perform(DeleteRoom(roomID: room.id))
    }

    /// Puts the device (every part of it, for a multipart device) in the room, and returns it moved; the value passed
    /// in stays as it was.
    public func move(device: HomeDevice, to room: Room) async throws(HomeError) -> HomeDevice {
        _ = try await context.perform(MoveDevices(device.parts, roomID: room.id))
        return device.with(room: room)
    }
}
