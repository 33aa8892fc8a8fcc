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
    /// The rights of another local user are read at each call, so a revoked grant takes effect at once.
    func check(_ access: HubAccess, of summary: String, for caller: HubCaller) async throws(HomeError) {
        let needed: HubRights
        let structures: [String]
        switch access {
        case .member:
            return
        case .owner:
            if case .user(let uid) = caller.principal, try directoryOwner() == uid { return }
            throw HomeError(.permissionDenied, "only the hub's owner may \(summary)")
        case .right(let right, let structureID):
            needed = right
            structures = [try self.structureID(structureID)]
        case .nodeRight(let right, let nodeID):
            needed = right
            structures = try structuresHolding(nodeID)
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

    /// The structures `nodeID`'s devices are in; the default one for a node the home has no device of yet.
    private func structuresHolding(_ nodeID: UInt64) throws(HomeError) -> [String] {
        let snapshot = model.snapshot
        let structures = Set((snapshot.devices[nodeID] ?? []).compactMap { snapshot.structureID(ofRoom: $0.roomID) })
        if structures.isEmpty { return [try Self.defaultStructureID(snapshot)] }
        return structures.sorted()
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
