import Foundation
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterNode
import MatterPlatform
import MatterSecureChannel

// Matter Core §9.16 and §4.20: the hub as the check-in client of its Long Idle Time devices. At a LIT device's first
// contact in a process, unless the store holds a registration, the hub registers where the multi-admin rule allows
// (`otherAdministrators`: no other ecosystem administers the node): a fresh 16-byte key (stored, 0600),
// its own node ID as CheckInNodeID and monitored subject, and the device's counter then. From then on the connection
// expects check-ins (`NodeConnection.expectCheckIns`): the device is asleep rather than offline between wakes. A
// Check-In the hub's node receives is opened with each registered key; one whose counter is above the last heard
// (an offset from the registration's, §4.20.2.4: counters wrap) wakes that node's connection, which subscribes again.
extension NodeConnections {
    private typealias ICD = IcdManagementCluster

    /// Whether the node says it is a Long Idle Time device (LITS feature, operating in LIT mode) that takes
    /// registrations (Check-In Protocol Support), by its cache.
    static func isLongIdleTimeDevice(_ cache: AttributeCache) -> Bool {
        guard let features = try? cache.value(ICD.Attributes.featureMap, endpoint: 0),
            features.contains([.checkInProtocolSupport, .longIdleTimeSupport]),
            (try? cache.value(ICD.Attributes.operatingMode, endpoint: 0)) == .lit
        else { return false }
        return true
    }

    /// The stored registrations, read once a process.
    func checkInRegistrations() async -> [UInt64: HubStore.CheckInRegistration] {
        if let registrations { return registrations }
        let stored = (try? await hub.store.checkInRegistrations()) ?? []
        let loaded = Dictionary(stored.map { ($0.nodeID, $0) }, uniquingKeysWith: { _, last in last })
        registrations = loaded
        return loaded
    }

    /// Registers the hub with the node when it is a LIT device the hub has no registration with and the multi-admin
    /// rule allows it; in the background, best effort (a node that refuses is asked again at its first contact in
    /// the next process). `administratorsChecked`: the caller applied the rule already (an explicit registration,
    /// with its own allowances).
    func registerForCheckIns(_ connection: NodeConnection, administratorsChecked: Bool = false) async {
        let nodeID = connection.nodeID
        if let underWay = registering[nodeID] { return await underWay.value }
        let registration = Task { await self.register(connection, administratorsChecked: administratorsChecked) }
        registering[nodeID] = registration
        await registration.value
        registering[nodeID] = nil
    }

    /// The multi-admin rule, one place for first contact and the explicit command (matterjs-server's register_icd):
    /// the vendors of the node's other fabrics, but `ignoredVendors`; a LIT device whose other administrators may not
    /// understand one that sleeps for long is not registered with unless the caller says so. Read across fabrics (the
    /// subscription's cache is fabric-filtered and holds only the hub's), unless the node says it has one fabric.
    func otherAdministrators(
        _ connection: NodeConnection, ignoring ignoredVendors: Set<UInt16>
    ) async throws(CheckInRegistrationError) -> [UInt16] {
        typealias Credentials = OperationalCredentialsCluster.Attributes
        if (try? await connection.cache.value(Credentials.commissionedFabrics, endpoint: 0)) == 1 { return [] }
        let report: InteractionReport
        do {
            report = try await connection.read([Credentials.fabrics.path(endpoint: 0)], isFabricFiltered: false)
        } catch {
            throw .unreachable("\(error)")
        }
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        let ours = hub.authority.fabric.fabricID
        let others = ((try? cache.value(Credentials.fabrics, endpoint: 0)) ?? [])
            .filter { $0.fabricID != ours && !ignoredVendors.contains($0.vendorID) }.map(\.vendorID)
        return Array(Set(others)).sorted()
    }

    /// Waits for a registration with the node under way, if any: what follows sees its outcome.
    func registrationSettled(_ nodeID: UInt64) async {
        await registering[nodeID]?.value
    }

    private func register(_ connection: NodeConnection, administratorsChecked: Bool) async {
        let nodeID = connection.nodeID
        guard await checkInRegistrations()[nodeID] == nil else { return }
        if !administratorsChecked, declinedCheckIns.contains(nodeID) { return }
        let cache = await connection.cache
        guard Self.isLongIdleTimeDevice(cache),
            let idle = try? cache.value(ICD.Attributes.idleModeDuration, endpoint: 0),
            let active = try? cache.value(ICD.Attributes.activeModeDuration, endpoint: 0)
        else { return }
        if !administratorsChecked {
            // Unreadable is not allowed: asked again at the next first contact.
            guard let others = try? await otherAdministrators(connection, ignoring: []) else { return }
            guard others.isEmpty else {
                declinedCheckIns.insert(nodeID)
                return
            }
        }
        let hubNodeID = hub.authority.hubNodeID
        let key = SystemRandom().bytes(CheckInMessage.keyLength)
        let register = ICD.Commands.RegisterClient(
            checkInNodeID: hubNodeID, monitoredSubject: hubNodeID, key: key, clientType: .permanent)
        guard let answer = try? await connection.invoke(register, endpoint: 0) else { return }
        let registration = HubStore.CheckInRegistration(
            nodeID: nodeID, key: key, startCounter: answer.icdCounter, idleSeconds: idle, activeMilliseconds: active)
        guard (try? await hub.store.saveCheckInRegistration(registration)) != nil else { return }
        registrations?[nodeID] = registration
        await connection.expectCheckIns(every: registration.period)
    }

    /// A Check-In the hub's node received: the registered node whose key opens it, when its counter is new, is
    /// subscribed to again. Anything else (no key opens it, a replay) is dropped.
    func receiveCheckIn(_ payload: [UInt8]) async {
        for registration in await checkInRegistrations().values {
            guard let message = try? CheckInMessage.open(payload, key: registration.key) else { continue }
            let offset = message.counter &- registration.startCounter
            guard registration.lastOffset.map({ offset > $0 }) ?? true,
                (try? await hub.store.noteCheckIn(nodeID: registration.nodeID, offset: offset)) == true
            else { return }
            registrations?[registration.nodeID]?.lastOffset = offset
            await existing(registration.nodeID)?.checkedIn()
            return
        }
    }
}

/// Where the hub stands with a node as its check-in client (matterjs-server's IcdStateData).
public struct CheckInState: Codable, Sendable, Hashable {
    /// The node has an ICD Management cluster.
    public var supported: Bool
    /// It can be a Long Idle Time device (LITS feature).
    public var longIdleTimeSupported: Bool
    public var registered: Bool
    /// "LIT" or "SIT"; nil without the cluster.
    public var operatingMode: String?
    /// Heard from within its active time: it answers now.
    public var awake: Bool?
    public var available: Bool?
    /// When its next check-in is due, when the hub is registered and has heard it.
    public var nextExpectedCheckIn: Date?

    public init(
        supported: Bool, longIdleTimeSupported: Bool, registered: Bool, operatingMode: String? = nil,
        awake: Bool? = nil, available: Bool? = nil, nextExpectedCheckIn: Date? = nil
    ) {
        self.supported = supported
        self.longIdleTimeSupported = longIdleTimeSupported
        self.registered = registered
        self.operatingMode = operatingMode
        self.awake = awake
        self.available = available
        self.nextExpectedCheckIn = nextExpectedCheckIn
    }
}

/// Why the hub could not register with a node, or unregister.
public enum CheckInRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a Long Idle Time device that takes registrations.
    case notLongIdleTime(nodeID: UInt64)
    /// Other ecosystems administer the node, which may not understand a LIT device (matterjs-server's error 100).
    case otherAdministrators(vendorIDs: [UInt16])
    case unreachable(String)
    case store(String)

    public var description: String {
        switch self {
        case .notLongIdleTime(let nodeID):
            "node \(nodeID) is not a Long Idle Time device that takes check-in registrations (ICD Management with the LITS and CIP features, in LIT mode)"
        case .otherAdministrators(let vendors):
            "other administrators control this node (vendors \(vendors.map { String($0) }.joined(separator: ", "))), which may not reach a device that sleeps for long; allow_multi_admin registers anyway"
        case .unreachable(let reason): "the node could not be reached: \(reason)"
        case .store(let reason): "the registration could not be stored: \(reason)"
        }
    }
}

extension NodeConnections {
    private typealias ICDAttributes = IcdManagementCluster.Attributes

    /// The hub's standing with the node as check-in client, from its cache and the stored registration.
    public func checkInState(of nodeID: UInt64) async throws -> CheckInState {
        let connection = try await connection(to: nodeID)
        await registrationSettled(nodeID)
        let cache = await connection.cache
        let features = try? cache.value(ICDAttributes.featureMap, endpoint: 0)
        guard let features else {
            return CheckInState(supported: false, longIdleTimeSupported: false, registered: false)
        }
        let mode = try? cache.value(ICDAttributes.operatingMode, endpoint: 0)
        let registration = await checkInRegistrations()[nodeID]
        let state = await connection.state
        let lastHeard = await connection.lastHeardDate
        let active = (try? cache.value(ICDAttributes.activeModeDuration, endpoint: 0)).map { Double($0) / 1000 }
        var awake: Bool?
        if let lastHeard, let active { awake = Date().timeIntervalSince(lastHeard) < active }
        return CheckInState(
            supported: true, longIdleTimeSupported: features.contains(.longIdleTimeSupport),
            registered: registration != nil, operatingMode: mode.map { $0 == .lit ? "LIT" : "SIT" },
            awake: awake,
            available: state.isReachable,
            nextExpectedCheckIn: registration.flatMap { registration in
                lastHeard.map { $0.addingTimeInterval(Double(registration.period.components.seconds)) }
            })
    }

    /// Registers the hub with the node now (it does so at first contact anyway); refused when other ecosystems'
    /// administrators control it, unless `allowMultiAdmin` or their vendors are `ignoredVendors`.
    public func registerForCheckIns(
        nodeID: UInt64, allowMultiAdmin: Bool, ignoredVendors: Set<UInt16>
    ) async throws(CheckInRegistrationError) {
        let connection: NodeConnection
        do {
            connection = try await self.connection(to: nodeID)
        } catch {
            throw .unreachable("\(error)")
        }
        await registrationSettled(nodeID)
        // Registered already (at first contact, or by an earlier command): what the hub did stands, whatever this
        // command would allow.
        if await checkInRegistrations()[nodeID] != nil { return }
        guard Self.isLongIdleTimeDevice(await connection.cache) else { throw .notLongIdleTime(nodeID: nodeID) }
        if !allowMultiAdmin {
            let others = try await otherAdministrators(connection, ignoring: ignoredVendors)
            guard others.isEmpty else { throw .otherAdministrators(vendorIDs: others) }
        }
        declinedCheckIns.remove(nodeID)
        await registerForCheckIns(connection, administratorsChecked: true)
        guard await checkInRegistrations()[nodeID] != nil else {
            throw .unreachable("the node did not accept the registration")
        }
    }

    /// Ends the hub's registration with the node: UnregisterClient on the node, unless `force` (an unreachable
    /// node), then the stored key; the node is reached like any other from then on.
    public func unregisterFromCheckIns(nodeID: UInt64, force: Bool) async throws(CheckInRegistrationError) {
        await registrationSettled(nodeID)
        let connection = existing(nodeID)
        if !force, await checkInRegistrations()[nodeID] != nil {
            guard let connection else { throw .unreachable("the node is not followed") }
            do {
                try await connection.invoke(
                    IcdManagementCluster.Commands.UnregisterClient(checkInNodeID: hub.authority.hubNodeID), endpoint: 0)
            } catch {
                throw .unreachable("\(error)")
            }
        }
        try await forgetCheckIns(nodeID)
        await connection?.expectCheckIns(every: nil)
    }

    /// Forgets the hub's registration here and reconnects: a LIT node is registered with again once subscribed.
    public func resyncCheckIns(nodeID: UInt64) async throws(CheckInRegistrationError) {
        await registrationSettled(nodeID)
        try await forgetCheckIns(nodeID)
        declinedCheckIns.remove(nodeID)
        let connection = existing(nodeID)
        await connection?.expectCheckIns(every: nil)
        await connection?.renew()
    }

    private func forgetCheckIns(_ nodeID: UInt64) async throws(CheckInRegistrationError) {
        do {
            try await hub.store.removeCheckInRegistration(nodeID: nodeID)
        } catch {
            throw .store("\(error)")
        }
        registrations?[nodeID] = nil
    }
}
