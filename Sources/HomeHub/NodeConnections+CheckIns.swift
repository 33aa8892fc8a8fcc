import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterNode
import MatterPlatform
import MatterSecureChannel

// Matter Core §9.16 and §4.20: the hub as the check-in client of its Long Idle Time devices. At a LIT device's first
// contact in a process, unless the store holds a registration, the hub registers: a fresh 16-byte key (stored, 0600),
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

    /// Registers the hub with the node when it is a LIT device the hub has no registration with; in the background,
    /// best effort (a node that refuses is asked again at its first contact in the next process).
    func registerForCheckIns(_ connection: NodeConnection) async {
        let nodeID = connection.nodeID
        guard await checkInRegistrations()[nodeID] == nil, !registering.contains(nodeID) else { return }
        let cache = await connection.cache
        guard Self.isLongIdleTimeDevice(cache),
            let idle = try? cache.value(ICD.Attributes.idleModeDuration, endpoint: 0),
            let active = try? cache.value(ICD.Attributes.activeModeDuration, endpoint: 0)
        else { return }
        registering.insert(nodeID)
        defer { registering.remove(nodeID) }
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
            registrations?[registration.nodeID] = HubStore.CheckInRegistration(
                nodeID: registration.nodeID, key: registration.key, startCounter: registration.startCounter,
                lastOffset: offset, idleSeconds: registration.idleSeconds,
                activeMilliseconds: registration.activeMilliseconds)
            await existing(registration.nodeID)?.checkedIn()
            return
        }
    }
}
