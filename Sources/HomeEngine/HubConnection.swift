import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterCrypto
import MatterPlatform

/// What an engine opened for a home needs to know besides where the home's state is.
public struct HubEngineOptions: Sendable, Hashable {
    /// Interfaces DNS-SD may use; empty: no mDNS at all, each device reached at its last known address.
    public var networkInterfaces: [String]
    /// How the live connections behave (the liveness of their subscriptions).
    public var connectionSettings: NodeConnection.Settings
    /// The trusted PAA certificates' directory; nil: the state directory's `paa/`.
    public var paaTrustStore: String?
    /// Skips discovery: where devices being added answer (tests over loopback).
    public var commissioningAddress: SocketAddress?
    /// The group whose members may use the home's socket too; nil: its owner only.
    public var socketGroup: UInt32?
    /// Who this process is to the hub's permissions: its owner holds every one.
    public var callerUID: UInt32

    public init(
        networkInterfaces: [String] = [], connectionSettings: NodeConnection.Settings = NodeConnection.Settings(),
        paaTrustStore: String? = nil, commissioningAddress: SocketAddress? = nil, socketGroup: UInt32? = nil,
        callerUID: UInt32 = getuid()
    ) {
        self.networkInterfaces = networkInterfaces
        self.connectionSettings = connectionSettings
        self.paaTrustStore = paaTrustStore
        self.commissioningAddress = commissioningAddress
        self.socketGroup = socketGroup
        self.callerUID = callerUID
    }
}

/// Where a process reaches a home's hub, the one front door to it: the engine in this process (which then serves the
/// home's socket, holding its serving lock), or a client of the process that is the hub. The Home API runs on one;
/// the `home` tool reaches what only a hub does (its model, pings, commissioning outside an add-device session, its
/// socket's activity) through the same one.
public final class HubConnection: Sendable {
    private enum Backend: Sendable {
        case engine(HubEngine, serving: Serving?)
        case client(HubClient)
    }

    /// The home's serving lock, taken, and the socket served under it.
    private struct Serving: Sendable {
        let lock: ServingLock
        let service: HubService
    }

    private let backend: Backend

    private init(_ backend: Backend) {
        self.backend = backend
    }

    /// The hub serving the home in `path`, attached to; or, when no process serves it, this process as its hub: it
    /// takes the home's serving lock, opens the store and the keys, and serves the home's socket, so the next process
    /// attaches to it instead of opening sessions of its own. A device an interrupted commissioning left holding the
    /// hub's fabric is then finished in the background (`Hub.finishInterruptedCommissionings`).
    public static func connect(
        stateDirectory path: String, options: HubEngineOptions
    ) async throws(HomeError)
        -> HubConnection
    {
        OpenSSLProcess.keepStateUntilExit()
        // A client needs nothing but the socket: a hub serving the directory is asked first, before anything of the
        // directory is checked or created (another user's home, shared with a socket group, is not ours to write).
        if let attached = try await attach(stateDirectory: path) { return attached }
        let directory: StateDirectory
        do {
            directory = try StateDirectory(creating: path)
        } catch {
            throw HomeError(error)
        }
        var holder: Int32?
        for attempt in 0..<HubEngineTiming.hubStartAttempts {
            if attempt > 0 {
                try? await Task.sleep(for: HubEngineTiming.hubStartRetry)
                if let attached = try await attach(stateDirectory: directory.path) { return attached }
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
            let engine = try await openEngine(statePath: directory.path, options: options)
            let service = try engine.serve(group: options.socketGroup)
            let interfaces = options.networkInterfaces
            Task { _ = await engine.hub.finishInterruptedCommissionings(interfaces: interfaces) }
            return HubConnection(.engine(engine, serving: Serving(lock: lock, service: service)))
        }
        throw HomeError(
            .unavailable,
            "a hub\(holder.map { " (PID \($0))" } ?? "") holds \(directory.path) but does not answer on its socket")
    }

    /// The hub serving the home in `path`, attached to; nil when no process serves it (this process does not become
    /// its hub).
    public static func attach(stateDirectory path: String) async throws(HomeError) -> HubConnection? {
        try await HubClient.attach(stateDirectory: path).map { HubConnection(.client($0)) }
    }

    /// An engine on the home in `statePath` (the default state directory when nil) that neither takes the home's
    /// lock nor serves its socket: for tests that open a hub beside another.
    public static func open(statePath: String?, options: HubEngineOptions) async throws(HomeError) -> HubConnection {
        HubConnection(.engine(try await openEngine(statePath: statePath, options: options), serving: nil))
    }

    private static func openEngine(
        statePath: String?, options: HubEngineOptions
    ) async throws(HomeError)
        -> HubEngine
    {
        do {
            let hub = try await Hub(statePath: statePath)
            let commissioning = CommissioningSettings(
                interfaces: options.networkInterfaces,
                paaTrustStore: options.paaTrustStore ?? hub.directory.path + "/paa",
                address: options.commissioningAddress, callerUID: options.callerUID)
            return try await HubEngine(
                hub: hub, interfaces: options.networkInterfaces, settings: options.connectionSettings,
                commissioning: commissioning)
        } catch {
            throw HomeError(opening: error)
        }
    }

    /// The home model: the engine's own, or a client's mirror of the hub's.
    public var model: HomeModel {
        switch backend {
        case .engine(let engine, _): engine.model
        case .client(let client): client.model
        }
    }

    /// The home's state directory.
    public var stateDirectory: String {
        switch backend {
        case .engine(let engine, _): engine.hub.directory.path
        case .client(let client): client.stateDirectory
        }
    }

    /// The engine, while this process is the home's hub; nil for a client of another process's hub.
    public var engine: HubEngine? {
        if case .engine(let engine, _) = backend { return engine }
        return nil
    }

    /// The engine, for what only the hub itself does: from a client of another process's hub that is a
    /// `failedPrecondition` error naming `what`.
    public func requireEngine(_ what: @autoclosure () -> String) throws(HomeError) -> HubEngine {
        switch backend {
        case .engine(let engine, _): return engine
        case .client(let client):
            throw HomeError(
                .failedPrecondition,
                "\(what()) needs this process to be the home's hub, and the hub serving \(client.stateDirectory) "
                    + "is PID \(client.status.pid)")
        }
    }

    /// Carries out `operation` where the hub is: here, or in the hub process.
    public func perform<Operation: HubOperation>(
        _ operation: Operation, progress: @escaping @Sendable (HubProgress) -> Void = { _ in }
    ) async throws(HomeError) -> Operation.Reply {
        switch backend {
        case .engine(let engine, _): try await engine.perform(operation, progress: progress)
        case .client(let client): try await client.send(operation, progress: progress)
        }
    }

    /// The home's socket while this process serves it (the tests' way to it).
    var service: HubService? {
        if case .engine(_, let serving?) = backend { return serving.service }
        return nil
    }

    /// Follows every node of the home live until `close()` (`HubEngine.followEveryNode`): what `home serve` does.
    public func followEveryNode() async throws(HomeError) {
        try await requireEngine("following every node").followEveryNode()
    }

    /// What happens on the home's socket while this process serves it: clients connecting, refused and gone, and
    /// their requests, one line each; an empty sequence otherwise.
    public var activity: AsyncStream<String> {
        if case .engine(_, let serving?) = backend { return serving.service.activity }
        return AsyncStream { $0.finish() }
    }

    /// Stops being the home's hub: its clients are disconnected (their calls fail `unavailable`), every node's
    /// subscription and session end, the hub's node withdraws its advertisements and closes its sockets, and the
    /// home's lock is released, so the next process becomes its hub at once. A client has nothing to close.
    public func close() async {
        guard case .engine(let engine, let serving) = backend else { return }
        serving?.service.stop()
        await engine.close()
        serving?.lock.release()
    }

    /// `close()` for an owner that cannot wait (one being released): the socket and the lock go now, the engine's
    /// sessions and sockets once `pending` (requests its owner sent without waiting) is done. A client stays until
    /// then, so those requests still reach the hub.
    public func closeSoon(after pending: Task<Void, Never>?) {
        switch backend {
        case .engine(let engine, let serving):
            serving?.service.stop()
            serving?.lock.release()
            Task {
                await pending?.value
                await engine.close()
            }
        case .client:
            guard let pending else { return }
            Task { [self] in
                await pending.value
                withExtendedLifetime(self) {}
            }
        }
    }
}

extension HubConnection {
    /// The hub as `home status` shows it.
    public func status() async throws(HomeError) -> HubStatus {
        try await perform(ReadHubStatus())
    }

    /// `home ping`: a CASE session to the node from scratch (besides the hub's own), then `reads` reads of its vendor
    /// name over it.
    public func ping(
        nodeID: UInt64, reads: Int
    ) async throws(HomeError) -> (
        address: SocketAddress, vendorName: String, session: Duration, roundTrips: [Duration]
    ) {
        let result = try await perform(PingNode(nodeID: nodeID, reads: reads))
        return (
            result.address, result.vendorName, .nanoseconds(Int64(result.sessionSeconds * 1e9)),
            result.roundTripSeconds.map { .nanoseconds(Int64($0 * 1e9)) }
        )
    }
}
