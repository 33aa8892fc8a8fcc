import MatterDiscovery
import MatterNode
import MatterPlatform
import MatterSecureChannel

// Matter Core §9.16 and §4.20: the virtual device as an intermittently connected device. A LIT device's radio
// listens only in active mode (`MatterTransport.sleepBetweenActivity`): after it wakes, for ActiveModeDuration, and
// for ActiveModeThreshold after each message. It wakes once an idle period; on waking it checks in with each client
// registered with it that holds no subscription of it (one that has one hears its report instead: a subscription's
// max interval is its idle time, so a subscriber it lost is found out within one), at the address
// found by operational DNS-SD on its interfaces, else at the address of the client's latest session with it, else
// where it registered from.
//
// What is simulated and what is not: a Thread parent would hold a sleepy child's frames until its next poll; here
// what arrives while the radio sleeps is lost, as frames are once a LIT device's poll interval outlasts the
// parent's buffer. A SIT device (`--icd sit`) polls within seconds, so it is served like any other device: its
// cluster says its modes, its radio is never off.
extension VirtualDevice {
    /// The device woke (or started): active mode begins, and a LIT device checks in.
    func wake() async {
        guard let settings = intermittent else { return }
        await node.transport.wake(for: settings.activeMode)
        guard settings.mode == .lit else { return }
        await checkIn()
    }

    /// Sends a Check-In to every registered client without a subscription of this device; the counter rises once
    /// for the lot.
    func checkIn() async {
        let fabrics = await node.model.node.fabrics
        var waiting: [IcdManagementServer.Registration] = []
        for registration in await icdRegistrations
        where fabrics.contains(where: { $0.index == registration.fabricIndex }) {
            let subscribed = await node.isSubscribed(
                byNode: registration.checkInNodeID, fabricIndex: registration.fabricIndex)
            if !subscribed { waiting.append(registration) }
        }
        guard !waiting.isEmpty, let counter = await takeCheckInCounter() else { return }
        for registration in waiting {
            let client = "node 0x\(String(registration.checkInNodeID, radix: 16, uppercase: true))"
            guard let address = await address(of: registration, fabrics: fabrics) else {
                log("[icd] cannot check in with \(client): no session with it, not found by DNS-SD, no address known")
                continue
            }
            do {
                let payload = try CheckInMessage(counter: counter).sealed(key: registration.key)
                try await node.sendCheckIn(payload, to: address)
                log("[icd] checked in with \(client) at \(address) (counter \(counter))")
            } catch {
                log("[icd] check-in with \(client) failed: \(error)")
            }
        }
    }

    /// The clients registered with its ICD Management cluster.
    public var icdRegistrations: [IcdManagementServer.Registration] {
        get async {
            await rootCluster(IcdManagementServer.self)?.registrations ?? []
        }
    }

    /// The counter of this check-in, the cluster's next one stored (ICDCounter never goes back).
    private func takeCheckInCounter() async -> UInt32? {
        try? await node.update(persisting: true) { model in
            var counter: UInt32?
            model.updateClusters(on: 0) { endpoint, cluster, node in
                guard var icd = cluster as? IcdManagementServer else { return }
                counter = icd.nextCheckIn(in: &node, endpoint: endpoint)
                cluster = icd
            }
            return counter
        }
    }

    /// Notes where a client that registered reaches it from (its session's address).
    func noteCheckInAddress(of nodeID: UInt64, fabricIndex: UInt8) async {
        guard let address = await node.peerAddress(ofNode: nodeID, fabricIndex: fabricIndex) else { return }
        checkInAddresses[CheckInClient(fabricIndex: fabricIndex, nodeID: nodeID)] = address
    }

    /// Where a check-in goes: the client's operational DNS-SD record when it advertises on the device's interfaces
    /// (as connectedhomeip's check-in sender resolves it: a session may be one the client's process left behind when
    /// it ended), else its latest session with the device, else where it was last reached from.
    private func address(
        of registration: IcdManagementServer.Registration, fabrics: [Fabric]
    ) async -> PeerAddress? {
        let client = CheckInClient(fabricIndex: registration.fabricIndex, nodeID: registration.checkInNodeID)
        if let resolved = await resolve(registration, fabrics: fabrics) {
            checkInAddresses[client] = resolved
            return resolved
        }
        if let address = await node.peerAddress(ofNode: client.nodeID, fabricIndex: client.fabricIndex) {
            checkInAddresses[client] = address
            return address
        }
        return checkInAddresses[client]
    }

    private func resolve(
        _ registration: IcdManagementServer.Registration, fabrics: [Fabric]
    ) async -> PeerAddress? {
        guard !interfaces.isEmpty, let fabric = fabrics.first(where: { $0.index == registration.fabricIndex }),
            let compressed = try? fabric.compressedFabricID()
        else { return nil }
        let peer = OperationalPeerID(
            compressedFabricID: compressed.reduce(0) { $0 << 8 | UInt64($1) }, nodeID: registration.checkInNodeID)
        guard
            let resolved = try? await MulticastDNSQuerier().resolveOperational(
                peer, interfaces: interfaces, timeout: DeviceConstants.checkInResolve),
            let address = resolved.socketAddresses.first
        else { return nil }
        return .udp(address)
    }
}
