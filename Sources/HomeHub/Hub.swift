import Foundation
import HomeRecords
import MatterCertificates
import MatterCrypto
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterNode
import MatterPlatform
import MatterSecureChannel
import Synchronization

/// The embedded hub on one state directory: its fabric, its store, and what it does with devices.
/// Several hubs (several state directories) can live side by side.
public final class Hub: Sendable {
    public let directory: StateDirectory
    public let store: HubStore
    public let authority: FabricAuthority
    /// The devices' OTA provider, on the hub's node, and its images (`ota-images/` of the state directory).
    public let updates: OTAProvider
    /// Every commissioning of this hub passes through it, whichever front door asked (the CLI, an app, the
    /// Matter-server API): several devices are added side by side, each with its own sessions on the hub's one
    /// transport, so one device's slow step never holds up another's; beyond the limit they wait their turn.
    private let commissionings = ConcurrencyLimit(Hub.concurrentCommissionings)
    /// How many devices one hub commissions at once (`HubConstants.concurrentCommissionings`).
    public static let concurrentCommissionings = HubConstants.concurrentCommissionings
    /// The process's one transport and the hub's node on it: not yet opened, open, or closed for good (`link()`).
    let openLink = Mutex(LinkState.notOpened)
    /// Opens the link's transport: UDP sockets on ephemeral ports on the system clock, or a test's simulated network.
    let makeTransport: @Sendable () throws -> MatterTransport
    /// Where a device commissioned over Bluetooth LE is looked for on IP once it joined its network: DNS-SD over
    /// mDNS, unless the hub's owner knows better (`resolveOperationalRecords`).
    private let operationalDiscovery = Mutex<Commissioner.OperationalDiscovery>(Commissioner.mDNSOperationalDiscovery)

    enum LinkState {
        case notOpened
        case open(HubLink)
        /// `close()` ended it: work still under way when the hub closed (a probe, a retry) opens no new one.
        case closed
    }

    /// Opens (creating on first use) the hub in `statePath`, or in the default XDG data directory. A commissioning
    /// that a crash interrupted is marked failed here, so it blocks nothing and can be finished or retried: at once
    /// when the process doing it is gone, after `HubTiming.abandonedCommissioning` for a row that does not say who.
    /// `transport` opens the link's transport (a test's runs on a simulated network and a manual clock).
    public init(
        statePath: String?, transport: @escaping @Sendable () throws -> MatterTransport = { try MatterTransport() }
    ) async throws {
        makeTransport = transport
        directory = try StateDirectory(explicitPath: statePath)
        store = try await HubStore(directory: directory)
        authority = try await FabricAuthority(store: store, keys: KeyStore(directory: directory))
        updates = OTAProvider(
            images: try await OTAImageStore(directory: directory.path + "/ota-images"), hubNodeID: authority.hubNodeID)
        // A commissioning still running in another process updates its row within the fail-safe; one older
        // than that was abandoned by a process that died.
        let abandoned = Date().addingTimeInterval(-Double(HubTiming.abandonedCommissioning.components.seconds))
        for node in try await store.pendingCommissionings() {
            let ownerGone = node.owner.map { !$0.isRunning } ?? (node.updatedAt < abandoned)
            if ownerGone { try await store.markFailed(node.nodeID) }
        }
    }

    /// Finishes the commissionings a crash interrupted after the device took our NOC (Matter Core §5.5: after
    /// CommissioningComplete the fail-safe no longer undoes it, so the device is ours whether or not the store said
    /// so): every node marked failed is tried over CASE, all at once, for `HubTiming.interruptedProbe`; one that
    /// answers is sent CommissioningComplete, interviewed, and its devices added, named after its product, in no
    /// room. A node that does not answer and never reached CommissioningComplete is forgotten once its fail-safe
    /// has surely expired (it rolled our NOC back: the device is commissionable again); any other stays marked failed
    /// (away, or ours without knowing it) and is tried again next time. `transport` (default: the hub's link; a
    /// test's has no node on it) and `now` are the tests' way in.
    public func finishInterruptedCommissionings(
        interfaces: [String], over transport: MatterTransport? = nil, now: Date = Date()
    ) async -> [FinishedCommissioning] {
        guard let nodes = try? await store.interruptedCommissionings(), !nodes.isEmpty else { return [] }
        let router: InteractionRouter
        if let transport {
            router = InteractionRouter(transport: transport)
        } else if let link = try? await link() {
            router = link.router
        } else {
            return []
        }
        let transport = router.transport
        return await withTaskGroup(of: FinishedCommissioning?.self) { group in
            for node in nodes {
                group.addTask { [self] in
                    do {
                        return try await withDeadline(HubTiming.interruptedProbe, on: transport.clock) {
                            try await self.finishInterrupted(node, interfaces: interfaces, over: router)
                        }
                    } catch {
                        if Self.failSafeRolledBack(node, now: now) { try? await store.deleteNode(node.nodeID) }
                        return nil
                    }
                }
            }
            var finished: [FinishedCommissioning] = []
            for await result in group { if let result { finished.append(result) } }
            return finished.sorted { $0.nodeID < $1.nodeID }
        }
    }

    /// Whether a node that did not answer has surely been rolled back by its device: it never reached
    /// CommissioningComplete, and its row (written after the fail-safe was armed) is older than the fail-safe.
    static func failSafeRolledBack(_ node: NodeRecord, now: Date) -> Bool {
        let completed = node.stepReached.map { $0 >= .commissioningComplete } ?? false
        return !completed && node.createdAt.addingTimeInterval(Double(HubConstants.failSafeSeconds)) < now
    }

    private func finishInterrupted(
        _ node: NodeRecord, interfaces: [String], over router: InteractionRouter
    ) async throws -> FinishedCommissioning {
        let transport = router.transport
        let address = try await operationalAddress(of: node, interfaces: interfaces)
        let session = try await SessionEstablishment.case(
            with: address, nodeID: node.nodeID, credentials: authority.operationalCredentials,
            validator: authority.peerValidator, over: transport)
        defer { Task { await transport.closeSession(session.session) } }
        let client = InteractionClient(
            transport: transport, session: session.session, peerParameters: session.established.mrpParameters,
            router: router)
        // Over CASE, as the commissioner does (§5.5): it commits a fail-safe still armed when the process died before
        // sending it; a device that already had it answers NoFailSafe, which is as good.
        _ = try? await client.invoke(GeneralCommissioningCluster.Commands.CommissioningComplete(), endpoint: 0)
        let interview = try await NodeInterview.interview(client)
        let description = interview.description
        await store.saveAttributeCaches([node.nodeID: interview.cache])
        let name = description.productName.isEmpty ? Commissioner.defaultDeviceName : description.productName
        let devices = try await store.finishCommissioning(
            node.nodeID, description: description, addresses: [address],
            mrpParameters: session.established.peerParameters.map { _ in session.established.mrpParameters },
            deviceName: name, room: nil, resuming: .failed)
        return FinishedCommissioning(nodeID: node.nodeID, productName: name, devices: devices)
    }

    /// Resolves operational records with `discovery` from now on, instead of mDNS: a home with no multicast (`home
    /// demo`, which runs outside any lab namespace, knows where its virtual devices come up).
    public func resolveOperationalRecords(with discovery: @escaping Commissioner.OperationalDiscovery) {
        operationalDiscovery.withLock { $0 = discovery }
    }

    /// Commissions a device onto the hub's fabric and adds its devices to the home, named `name` (default: the
    /// product's name) in `room` (created when new); up to `Hub.concurrentCommissionings` at once.
    public func commission(
        _ request: CommissioningRequest, name: String?, room: String?,
        progress: @escaping @Sendable (CommissioningProgress) -> Void
    ) async throws -> CommissioningResult {
        try await commissionings.run { [self] in
            let link = try await link()
            let commissioner = Commissioner(
                authority: authority, store: store, transport: link.transport, router: link.router,
                operationalDiscovery: operationalDiscovery.withLock { $0 }, progress: progress)
            return try await commissioner.commission(request, name: name, room: room)
        }
    }

    /// The devices of the home.
    public func devices() async throws -> [DeviceRecord] {
        try await store.devices()
    }

    /// The device with this ID (`8FC7772401CD0696-1`), or the only device of a node given by its node ID.
    public func device(named text: String) async throws -> DeviceRecord {
        let devices = try await store.devices()
        if let id = DeviceID(text), let device = devices.first(where: { $0.id == id }) { return device }
        if let byName = devices.filter({ $0.name.caseInsensitiveCompare(text) == .orderedSame }).first { return byName }
        throw HubError.unknownDevice(text)
    }

    /// Opens a CASE session to the device's node from nothing but what the store holds, reads Basic
    /// Information VendorName `reads` times over it, and times the session and each read. The session is closed
    /// after, whatever happened: the device keeps few.
    public func ping(_ device: DeviceRecord, interfaces: [String], reads: Int = 1) async throws -> PingResult {
        let link = try await link()
        let clock = ContinuousClock()
        let start = clock.now
        let address = try await operationalAddress(of: device.node, interfaces: interfaces)
        let session = try await SessionEstablishment.case(
            with: address, nodeID: device.node.nodeID, credentials: authority.operationalCredentials,
            validator: authority.peerValidator, over: link.transport)
        defer { Task { await link.transport.closeSession(session.session) } }
        let sessionTime = clock.now - start
        let client = link.client(of: session.session, peerParameters: session.established.mrpParameters)
        let vendorNameAttribute = BasicInformationCluster.Attributes.vendorName
        let (report, roundTrips) = try await client.timedReads([vendorNameAttribute.path(endpoint: 0)], count: reads)
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        guard let vendorName = try cache.value(vendorNameAttribute, endpoint: 0) else {
            throw HubError.missingAttribute(vendorNameAttribute.qualifiedName)
        }
        return PingResult(
            address: address, vendorName: vendorName, sessionEstablishment: sessionTime, roundTrips: roundTrips)
    }

    /// Where the node is: its operational DNS-SD record when mDNS may be used, else its last known address.
    func operationalAddress(of node: NodeRecord, interfaces: [String]) async throws -> SocketAddress {
        if !interfaces.isEmpty {
            let peer = OperationalPeerID(
                compressedFabricID: authority.compressedFabricIDNumber, nodeID: node.nodeID
            )
            if let resolved = try? await MulticastDNSQuerier().resolveOperational(
                peer, interfaces: interfaces, timeout: HubTiming.operationalResolve),
                let address = resolved.socketAddresses.first
            {
                return address
            }
        }
        guard let address = node.addresses.first else { throw HubError.noAddress(node.nodeID) }
        return address
    }
}

/// A commissioning a crash had interrupted, finished later.
public struct FinishedCommissioning: Sendable, Hashable {
    public let nodeID: UInt64
    public let productName: String
    public let devices: [DeviceID]
}

public struct PingResult: Sendable {
    public let address: SocketAddress
    public let vendorName: String
    public let sessionEstablishment: Duration
    /// Each read's round trip, in the order they were made.
    public let roundTrips: [Duration]
}

public enum HubError: Error, Sendable, CustomStringConvertible {
    case unknownDevice(String)
    case unknownNode(UInt64)
    case noAddress(UInt64)
    case missingAttribute(String)

    public var description: String {
        switch self {
        case .unknownDevice(let text): "no device \"\(text)\" (see 'home devices')"
        case .missingAttribute(let name): "the device's answer has no \(name)"
        case .unknownNode(let nodeID):
            "node 0x\(String(nodeID, radix: 16, uppercase: true)) is not a commissioned node of this hub"
        case .noAddress(let nodeID):
            "node 0x\(String(nodeID, radix: 16, uppercase: true)) has no known address; pass --interface to find it by DNS-SD"
        }
    }
}
