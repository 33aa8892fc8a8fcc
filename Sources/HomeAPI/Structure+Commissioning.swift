import Foundation
import HomeHub

/// Adding Matter devices to the structure: prepare a session, perform a `MatterAddDeviceRequest`, then complete or cancel.
extension Structure {
    /// Opens this process's add-device session for the structure, after checking, in this order: the caller may add
    /// devices here (`permissionDenied`); the hub can reach devices (`unavailable`); no other session is open in the
    /// home, from this or any other process (`failedPrecondition`). A session whose process died, or whose deadline
    /// passed, is cleared first, with what it had commissioned.
    public func prepareForMatterCommissioning() async throws(HomeError) {
        let local = try context.embedded("adding a device")
        try local.requireCommissioningPermission(structureID: id, structureName: name)
        do {
            try await local.hub.checkOnline(interfaces: local.commissioning.interfaces)
        } catch {
            throw HomeError(.unavailable, "the hub cannot reach devices: \(error)")
        }
        guard let owner = ProcessIdentity.current() else {
            throw HomeError(.internal, "cannot read this process's start time from /proc/self/stat")
        }
        if let abandoned = try? local.store.commissioningSession(), abandoned.isAbandoned(now: Date()) {
            await removeFromFabric(commissionedIn: abandoned)
        }
        let now = Date()
        let session = CommissioningSessionRecord(
            id: UUID().uuidString, structureID: id, owner: owner,
            deadline: now.addingTimeInterval(Double(HomeTiming.commissioningSession.components.seconds)),
            interfaces: local.commissioning.interfaces, paaTrustStore: local.commissioning.paaTrustStore)
        try local.write { store throws(HubStoreError) in try store.openCommissioningSession(session, now: now) }
    }

    /// Closes this process's session and returns the IDs of the devices added in it (as `HomeDevice.id`). Throws
    /// `failedPrecondition` when no session of this process is open or nothing was commissioned in it.
    public func completeMatterCommissioning() throws(HomeError) -> Set<String> {
        let local = try context.embedded("adding a device")
        let session = try ownSession()
        let devices = try local.write { store throws(HubStoreError) in
            try store.completeCommissioningSession(session.id)
        }
        return Set(devices.map(\.description))
    }

    /// Closes this process's session (or an abandoned one) and undoes it: each device commissioned in it is asked to
    /// leave the hub's fabric (a device out of reach keeps a fabric nobody uses; a device part-way through is rolled
    /// back by its fail-safe), and nothing of it stays in the store. Without such a session it does nothing. It cannot
    /// fail: should the store refuse the change, the session holds the home until its deadline.
    public func cancelMatterCommissioning() async {
        guard let local = try? context.embedded("adding a device") else { return }
        guard let session = try? local.store.commissioningSession(),
            session.owner == ProcessIdentity.current() || session.isAbandoned(now: Date())
        else { return }
        await removeFromFabric(commissionedIn: session)
        _ = try? local.write { store throws(HubStoreError) in try store.cancelCommissioningSession(session.id) }
    }

    /// Best effort, one node after the other, each bounded by the hub's fabric-removal timeout. Nodes still marked
    /// `commissioning` are asked too: their process may have died after CommissioningComplete, when the device's
    /// fail-safe no longer undoes anything (before it, CASE fails at once: the device dropped our NOC).
    private func removeFromFabric(commissionedIn session: CommissioningSessionRecord) async {
        guard let local = try? context.embedded("adding a device") else { return }
        for nodeID in session.nodeIDs {
            try? await local.hub.removeFromFabric(nodeID, interfaces: session.interfaces)
        }
    }

    /// Lets the local user `uid` add devices to this structure; only the hub's owner may grant.
    public func grantCommissioning(toUser uid: UInt32) throws(HomeError) {
        let local = try context.embedded("granting permissions")
        try requireOwner()
        try local.write { store throws(HubStoreError) in try store.grantCommissioning(uid: uid, structureID: id) }
    }

    /// Takes the grant back; the user's next call is refused.
    public func revokeCommissioning(fromUser uid: UInt32) throws(HomeError) {
        let local = try context.embedded("granting permissions")
        try requireOwner()
        try local.write { store throws(HubStoreError) in try store.revokeCommissioning(uid: uid, structureID: id) }
    }

    private func requireOwner() throws(HomeError) {
        let local = try context.embedded("adding a device")
        var status = stat()
        guard stat(local.hub.directory.path, &status) == 0, status.st_uid == local.commissioning.callerUID else {
            throw HomeError(.permissionDenied, "only the hub's owner may grant or revoke permissions")
        }
    }

    private func ownSession() throws(HomeError) -> CommissioningSessionRecord {
        let local = try context.embedded("adding a device")
        let session = try local.liveSession()
        guard session.owner == ProcessIdentity.current(), session.structureID == id else {
            throw HomeError(
                .failedPrecondition, "no commissioning session of this process is open for structure \"\(name)\"")
        }
        return session
    }
}
