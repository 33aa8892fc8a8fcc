import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterPlatform
import Synchronization

/// The hub of a home, in this process: the hub itself (store, keys, its link), the home model, the live connections
/// to its nodes, and the one place each hub operation (`HubOperation`) is carried out (`perform`), whoever asks: this
/// process's own `Home`, a client of its socket (`HubService`), the Matter-server API. What `home serve` runs, and
/// what an app with no hub running embeds.
public final class HubEngine: Sendable {
    public let hub: Hub
    public let model: HomeModel
    let live: LiveNodes
    /// The home's Matter groups on its devices.
    let groups: HubGroups
    /// Where it looks for devices to add, what it trusts, and who this process runs as.
    public let commissioning: CommissioningSettings
    let startedAt = Date()
    /// How many clients its socket serves now.
    let clients = ClientCount()
    /// The group whose members its socket serves too (`serve(group:)`), who read the add-device session's state.
    private let servedGroup = Mutex<gid_t?>(nil)
    var socketGroup: gid_t? { servedGroup.withLock { $0 } }
    var store: HubStore { hub.store }
    /// The hub's Bluetooth: the BLE proxy clients' central while it offers `/ble`, and local adapters.
    let bluetooth = Mutex(HubBluetooth())
    /// Renews the live connection of a node that says it applied an update (it rebooted).
    private let rebootWatch = Mutex<Task<Void, Never>?>(nil)
    /// The nodes an update is being started or followed for (`UpdateDevice`): one at a time per device.
    let updating = Mutex<Set<UInt64>>([])
    private let level = Mutex(HubLogLevel.info)

    /// How much the serving hub says; `home serve` reads it at each line.
    public var logLevel: HubLogLevel {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    /// The engine of `hub`, its model read from the store. `interfaces` are where nodes are looked up and the hub's
    /// node advertises itself; `settings` how its live connections behave.
    /// `groupInterfaces`: where group messages go, when not `interfaces` (a test's simulated network).
    public init(
        hub: Hub, interfaces: [String], groupInterfaces: [String]? = nil, settings: NodeConnection.Settings,
        commissioning: CommissioningSettings
    ) async throws(HubStoreError) {
        self.hub = hub
        model = try await HomeModel(store: hub.store)
        live = LiveNodes(
            hub: hub, model: model, interfaces: interfaces, groupInterfaces: groupInterfaces, settings: settings)
        groups = HubGroups(hub: hub, model: model, live: live)
        self.commissioning = commissioning
        // What an earlier hub process left of a session is rewritten, or removed once the session is gone.
        await publishCommissioningSession()
        let updates = hub.updates.events()
        rebootWatch.withLock {
            $0 = Task { [live] in
                for await event in updates {
                    if case .applied(let nodeID, _) = event { await live.renew(nodeID) }
                }
            }
        }
    }

    deinit {
        rebootWatch.withLock { $0?.cancel() }
    }

    /// The structure a device without a room belongs to: the home's first; a home without one is damaged.
    public static func defaultStructureID(_ snapshot: HomeModel.Snapshot) throws(HomeError) -> String {
        guard let id = snapshot.defaultStructureID else {
            throw HomeError(.dataLoss, "the home has no structure: it needs its default one")
        }
        return id
    }

    /// The structure given, or the home's default one.
    func structureID(_ given: String?) throws(HomeError) -> String {
        if let given { return given }
        return try Self.defaultStructureID(model.snapshot)
    }

    /// A node as a device ID names it: its node ID in 16 uppercase hex digits.
    public static func nodeDeviceID(_ nodeID: UInt64) -> String {
        let hex = String(nodeID, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A write to the store; the model re-reads what it changed before this returns.
    @discardableResult
    func write<Result>(_ body: (HubStore) async throws(HubStoreError) -> Result) async throws(HomeError) -> Result {
        do {
            return try await body(store)
        } catch {
            throw HomeError(error)
        }
    }
}

/// How many clients the hub's socket serves now, as the service serving it counts them (none while it serves none).
final class ClientCount: Sendable {
    private let source = Mutex<(@Sendable () -> Int)?>(nil)

    var value: Int { source.withLock { $0 }?() ?? 0 }

    /// The service whose clients these are.
    func count(with source: @escaping @Sendable () -> Int) {
        self.source.withLock { $0 = source }
    }
}

extension HubEngine {
    /// Follows every node of the home live, as the hub of a home that runs all day does, until `stopFollowing()`:
    /// each node's connection starts at once (at its last known address first), and a node added later is followed
    /// as soon as it appears. The hub's own node answers the devices of its fabric from the start, with or without
    /// any, and advertises itself. Returns once every node present has had its first try.
    public func followEveryNode() async throws(HomeError) {
        try await live.startNode()
        live.followAdded(from: model.changes(.home))
        groups.follow()
        await live.follow(Array(model.snapshot.devices.keys))
    }

    /// Stops following devices live: every node's subscription and session end. A later subscription or command
    /// starts them again.
    public func stopFollowing() async {
        groups.stop()
        await live.stop()
    }

    /// Stops following devices and closes the hub's link: its node withdraws its advertisements, its sockets close.
    public func close() async {
        rebootWatch.withLock { $0?.cancel() }
        groups.stop()
        await live.stop()
        await hub.close()
    }

    /// Serves the home's socket, owner-only or for `group` too; the caller holds the home's serving lock.
    public func serve(group: gid_t?) throws(HomeError) -> HubService {
        servedGroup.withLock { $0 = group }
        return try HubService(engine: self, group: group)
    }
}
