import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// Adding Matter devices to the structure: prepare a session, perform a `MatterAddDeviceRequest`, then complete or cancel.
/// The session belongs to the calling process, wherever the hub runs.
extension Structure {
    /// Opens this process's add-device session for the structure, after checking, in this order: the caller may add
    /// devices here (`permissionDenied`); the hub can reach devices (`unavailable`); no other session is open in the
    /// home, from this or any other process (`failedPrecondition`). A session whose process died, or whose deadline
    /// passed, is cleared first, with what it had commissioned.
    public func prepareForMatterCommissioning() async throws(HomeError) {
        _ = try await context.perform(PrepareCommissioning(structureID: id))
    }

    /// Closes this process's session and returns the IDs of the devices added in it (as `HomeDevice.id`). Throws
    /// `failedPrecondition` when no session of this process is open for the structure or nothing was commissioned
    /// in it. Synchronous, as the flow's documentation writes it: the session is read from its state in the home's
    /// directory (`CommissioningSessionState`), and the hub closes it right after, before any later call of this
    /// `Home` reaches the hub.
    public func completeMatterCommissioning() throws(HomeError) -> Set<String> {
        let session = try context.openCommissioningSession()
        guard let session, session.structureID == id, session.owner == ProcessIdentity.current() else {
            throw HomeError(
                .failedPrecondition, "no commissioning session of this process is open for structure \"\(name)\"")
        }
        guard !session.devices.isEmpty else {
            throw HomeError(.failedPrecondition, HubStoreError.nothingCommissioned.description)
        }
        context.closing(session)
        context.send(withoutWaiting: CompleteCommissioning(structureID: id))
        return Set(session.devices)
    }

    /// Closes this process's session (or an abandoned one) and undoes it: each device commissioned in it is asked to
    /// leave the hub's fabric (a device out of reach keeps a fabric nobody uses; a device part-way through is rolled
    /// back by its fail-safe), and nothing of it stays in the store. Without such a session it does nothing. It cannot
    /// fail: should the store refuse the change, the session holds the home until its deadline. Synchronous, as the
    /// flow's documentation writes it: the hub undoes the session right after, before any later call of this `Home`
    /// reaches the hub.
    public func cancelMatterCommissioning() {
        context.closing(try? context.openCommissioningSession())
        context.send(withoutWaiting: CancelCommissioning())
    }

    /// Lets the local user `uid` add devices to this structure; only the hub's owner may grant.
    public func grantCommissioning(toUser uid: UInt32) async throws(HomeError) {
        _ = try await context.perform(SetCommissioningGrant(uid: uid, structureID: id, granted: true))
    }

    /// Takes the grant back; the user's next call is refused.
    public func revokeCommissioning(fromUser uid: UInt32) async throws(HomeError) {
        _ = try await context.perform(SetCommissioningGrant(uid: uid, structureID: id, granted: false))
    }
}
