import Foundation
import HomeHub
import HubWire

/// Who may ask for an operation, checked before it runs. Seeing, controlling and organising the home's devices is
/// every caller's; what goes beyond names the right it takes (`HubRights`) and where: a structure, or a node (the
/// structures its devices are in, read from the model at each call, never from what the caller says).
public enum HubAccess: Sendable, Hashable {
    /// Any caller the hub admitted.
    case member
    /// The owner of the home's state directory alone (the grants themselves): no network client, whatever its door
    /// was given.
    case owner
    /// `right` in the structure (nil: the home's default one).
    case right(HubRights, structureID: String?)
    /// `right` over a node: in every structure its devices are in (the default one for a node with none yet).
    case nodeRight(HubRights, nodeID: UInt64)
}

extension HubEngine {
    /// Whether `caller` holds what `access` asks; `permissionDenied`, naming the caller and what it lacks, when not.
    /// The rights of another local user are read at each call, so a revoked grant takes effect at once. Public for a
    /// front door's own command that is no hub operation (the Matter-server API's log level, its test nodes).
    public func check(_ access: HubAccess, of summary: String, for caller: HubCaller) async throws(HomeError) {
        let needed: HubRights
        switch access {
        case .member:
            return
        case .owner:
            if try isOwner(caller) { return }
            throw HomeError(.permissionDenied, "only the hub's owner may \(summary)")
        case .right(let right, _), .nodeRight(let right, _):
            needed = right
        }
        switch caller.principal {
        case .client(let client):
            guard client.rights.isSuperset(of: needed) else {
                throw HomeError(
                    .permissionDenied,
                    "\(client.name) may not \(summary): it holds \(client.rights) of the rights, and this takes "
                        + "\(needed) (home serve --api-grant gives its clients more)")
            }
        case .user(let uid):
            let owner = try directoryOwner()
            if uid == owner { return }
            // Network credentials and firmware images are the owner's alone: a grant covers a structure's devices.
            guard HubRights([.devices, .administer]).isSuperset(of: needed) else {
                throw HomeError(.permissionDenied, "only the hub's owner may \(summary)")
            }
            // Where the grant must hold: read only for the one caller whose rights depend on it.
            let structures =
                switch access {
                case .nodeRight(_, let nodeID): try await structuresHolding(nodeID)
                case .right(_, let structureID): [try self.structureID(structureID)]
                case .member, .owner: [String]()
                }
            for structure in structures {
                let granted: Bool
                do {
                    granted = try await store.hasCommissioningGrant(uid: uid, structureID: structure)
                } catch {
                    throw HomeError(error)
                }
                guard granted else {
                    let name = model.snapshot.structures.first { $0.id == structure }?.name ?? structure
                    throw HomeError(
                        .permissionDenied,
                        "user \(uid) may not \(summary) in structure \"\(name)\": the hub's owner (user \(owner)) "
                            + "has not granted it")
                }
            }
        }
    }

    /// Devices that leave `structures` for `destination` change who may administer them (the rights over a node are
    /// read from the structures its devices are in): that takes the devices right in each, as adding there and
    /// removing from there would. Moving within a structure is organising, every caller's.
    func checkMoving(
        from structures: Set<String>, to destination: String, of summary: String, for caller: HubCaller
    ) async throws(HomeError) {
        let crossed = structures.subtracting([destination])
        guard !crossed.isEmpty else { return }
        for structure in crossed.union([destination]).sorted() {
            try await check(.right(.devices, structureID: structure), of: summary, for: caller)
        }
    }

    /// The structures `nodeID`'s devices are in (a device in no room is the default structure's). A node the home
    /// has no device of yet is its add-device session's structure's while that session holds it, else the default
    /// one's (an interrupted commissioning's, which `InterruptedDevice.remove` gives up on).
    private func structuresHolding(_ nodeID: UInt64) async throws(HomeError) -> [String] {
        let snapshot = model.snapshot
        let structures = Set((snapshot.devices[nodeID] ?? []).compactMap { snapshot.structureID(ofRoom: $0.roomID) })
        if !structures.isEmpty { return structures.sorted() }
        let session: CommissioningSessionRecord?
        do {
            session = try await store.commissioningSession()
        } catch {
            throw HomeError(error)
        }
        if let session, session.nodeIDs.contains(nodeID) { return [session.structureID] }
        return [try Self.defaultStructureID(snapshot)]
    }

    /// Whether `caller` is the home's owner (the state directory's user).
    func isOwner(_ caller: HubCaller) throws(HomeError) -> Bool {
        guard case .user(let uid) = caller.principal else { return false }
        return try directoryOwner() == uid
    }

    func directoryOwner() throws(HomeError) -> UInt32 {
        var status = stat()
        guard stat(hub.directory.path, &status) == 0 else {
            throw HomeError(
                .unavailable, "cannot read the owner of \(hub.directory.path): \(String(cString: strerror(errno)))")
        }
        return status.st_uid
    }
}
