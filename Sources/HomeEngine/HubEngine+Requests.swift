import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel

/// How the hub in this process carries out a `HubRequest`: for its own `Home`, and for every client of its socket.
/// Each rule of a change to the home (a name's validation and cut, the default structure, the fabric label) lives
/// here, once.
extension HubEngine {
    /// Carries out `request` for this process itself (its own `Home`, `home serve`): the caller is this process's
    /// user.
    public func execute(
        _ request: HubRequest, progress: @escaping @Sendable (HubProgress) -> Void = { _ in }
    ) async throws(HomeError) -> HubReply {
        try await execute(
            request, caller: HubCaller(uid: commissioning.callerUID, process: ProcessIdentity.current()),
            progress: progress)
    }

    /// Carries out `request` for `caller` (a client of the socket, the Matter-server API), with its permissions.
    public func execute(
        _ request: HubRequest, caller: HubCaller, progress: @escaping @Sendable (HubProgress) -> Void = { _ in }
    ) async throws(HomeError) -> HubReply {
        switch request {
        case .renameDevice(let nodeID, let parts, let multipart, let name):
            let valid = try HomeName.validated(name, naming: "device")
            try await write { store async throws(HubStoreError) in
                if multipart {
                    try await store.renameNode(nodeID, to: valid)
                } else {
                    for part in parts { try await store.renameDevice(part, to: valid) }
                }
            }
            return .name(valid)
        case .renameRoom(let id, let name):
            let valid = try HomeName.validated(name, naming: "room")
            try await write { store async throws(HubStoreError) in try await store.renameRoom(id, to: valid) }
            // An open add-device session lists the rooms as they are now.
            await publishCommissioningSession()
            return .name(valid)
        case .renameStructure(let id, let name):
            let valid = try HomeName.validated(name, naming: "structure")
            try await write { store async throws(HubStoreError) in try await store.renameStructure(id, to: valid)
            }
            // The hub's fabric on every node is labelled with the home's name: other ecosystems show the new one.
            if model.snapshot.defaultStructureID == id { live.relabelFabric(FabricLabel.of(home: valid)) }
            return .name(valid)
        case .createRoom(let name, let structureID):
            let valid = try HomeName.validated(name, naming: "room")
            let structure: String
            if let structureID {
                structure = structureID
            } else {
                structure = try Self.defaultStructureID(model.snapshot)
            }
            let created = try await write { store async throws(HubStoreError) in
                try await store.createRoom(named: valid, in: structure)
            }
            await publishCommissioningSession()
            return .room(created)
        case .deleteRoom(let id):
            try await write { store async throws(HubStoreError) in try await store.deleteRoom(id) }
            await publishCommissioningSession()
            return .done
        case .moveDevices(let parts, let roomID):
            try await write { store async throws(HubStoreError) in
                try await store.moveDevices(parts, toRoom: roomID)
            }
            return .done
        case .follow(let nodeID):
            _ = try await live.connection(to: nodeID)
            return .done
        case .invoke(let invocation):
            return try await invoke(invocation)
        case .interview(let nodeID):
            let connection = try await live.connection(to: nodeID)
            do {
                try await connection.reinterview()
                return .done
            } catch {
                throw HomeError(error, command: "the interview")
            }
        case .writeAttribute(let write):
            let connection = try await live.connection(to: write.nodeID)
            do {
                let status = try await connection.write(
                    write.value, endpoint: write.endpoint, cluster: write.cluster, attribute: write.attribute,
                    timedWindow: write.timedWindowMilliseconds.map { .milliseconds($0) })
                return .written(status: status.rawValue)
            } catch {
                throw HomeError(error, command: write.name)
            }
        case .toggle(let nodeID, let endpoint):
            let connection = try await live.connection(to: nodeID)
            do {
                switch try await connection.toggle(endpoint: endpoint) {
                case .toggle: return .toggled(.toggled)
                case .on: return .toggled(.turnedOn)
                case .off: return .toggled(.turnedOff)
                }
            } catch {
                throw HomeError(error, command: "Toggle")
            }
        case .status:
            return .status(status())
        case .nodeEndpoints(let nodeID):
            do {
                return .endpoints(
                    try await store.endpoints(of: nodeID), tags: try await store.semanticTags(of: nodeID))
            } catch {
                throw HomeError(error)
            }
        case .prepareCommissioning, .commission, .configureCommissioned, .completeCommissioning,
            .cancelCommissioning, .grantCommissioning, .revokeCommissioning, .checkCommissioningPermission,
            .decommission:
            // The session's state file follows every change of the session, failed ones included (a prepare that
            // cleared an abandoned session before it was refused).
            do {
                let reply = try await executeCommissioning(request, caller: caller, model: model)
                await publishCommissioningSession()
                return reply
            } catch {
                await publishCommissioningSession()
                throw error
            }
        case .openCommissioningWindow, .openBasicCommissioningWindow, .revokeCommissioningWindow,
            .commissioningWindowStatus, .fabrics, .removeFabric:
            return try await executeSharing(request, caller: caller, model: model)
        case .commissionDevice(let commissioning):
            let structureID = try Self.defaultStructureID(model.snapshot)
            try await requireCommissioningPermission(
                caller, structureID: structureID,
                structureName: model.snapshot.structures.first?.name ?? structureID)
            return .commissioned(try await commission(commissioning, progress: progress))
        case .ping(let nodeID, let reads):
            guard let node = model.devices(of: nodeID)?.first else {
                throw HomeError(.notFound, "node \(Self.nodeDeviceID(nodeID)) is no longer in the home")
            }
            do {
                let result = try await hub.ping(node, interfaces: commissioning.interfaces, reads: reads)
                return .pinged(
                    address: result.address, vendorName: result.vendorName,
                    sessionSeconds: result.sessionEstablishment.inSeconds,
                    roundTripSeconds: result.roundTrips.map(\.inSeconds))
            } catch {
                throw HomeError(.unavailable, "\(error)")
            }
        }
    }

    /// The hub as `home status` shows it.
    func status() -> HubStatus {
        let snapshot = model.snapshot
        var online = 0
        var offline = 0
        for nodeID in snapshot.devices.keys {
            switch snapshot.views[nodeID]?.state {
            case .online: online += 1
            case .offline: offline += 1
            case .connecting, nil: break
            }
        }
        return HubStatus(
            pid: getpid(), stateDirectory: hub.directory.path,
            startedAt: startedAt.timeIntervalSince1970, nodesOnline: online, nodesOffline: offline,
            nodesUnknown: snapshot.devices.count - online - offline, nodesInterrupted: snapshot.interrupted.count,
            clients: clients.value)
    }

    private func invoke(_ invocation: HubRequest.Invocation) async throws(HomeError) -> HubReply {
        let connection = try await live.connection(to: invocation.nodeID)
        // A trait kept from before its endpoint stopped serving the cluster (a bridge changed) is refused here,
        // before anything is sent, from the node's live Descriptor.
        let serverList = DescriptorCluster.Attributes.serverList
        let cluster = ClusterID(rawValue: invocation.cluster)
        if let served = try? await connection.cache.value(serverList, endpoint: invocation.endpoint),
            !served.contains(cluster)
        {
            let names = served.map { ClusterRegistry.standard.describe(cluster: $0) }.joined(separator: ", ")
            throw HomeError(
                .failedPrecondition,
                "endpoint \(invocation.endpoint) has no \(ClusterRegistry.standard.describe(cluster: cluster)) "
                    + "(its clusters: \(names))")
        }
        do {
            let response = try await connection.invoke(
                endpoint: invocation.endpoint, cluster: invocation.cluster, command: invocation.command,
                fields: invocation.fields.value,
                timedWindow: invocation.timedWindowMilliseconds.map { .milliseconds($0) })
            return .invoked(command: response?.path.command, fields: response?.fields)
        } catch {
            throw HomeError(error, command: invocation.name)
        }
    }
}
