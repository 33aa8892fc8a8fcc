import Foundation
import HomeHub

/// The checks every add-device call makes: who may add devices, and which session is open.
extension EmbeddedHub {
    /// The owner of the state directory holds every permission; another local user needs a grant for the structure,
    /// read at each call, so a revoked grant takes effect at once.
    func requireCommissioningPermission(structureID: String, structureName: String) throws(HomeError) {
        var status = stat()
        guard stat(hub.directory.path, &status) == 0 else {
            throw HomeError(
                .unavailable, "cannot read the owner of \(hub.directory.path): \(String(cString: strerror(errno)))")
        }
        let caller = commissioning.callerUID
        if caller == status.st_uid { return }
        let granted: Bool
        do {
            granted = try store.hasCommissioningGrant(uid: caller, structureID: structureID)
        } catch {
            throw HomeError(error)
        }
        guard granted else {
            throw HomeError(
                .permissionDenied,
                "user \(caller) may not add devices to structure \"\(structureName)\": the hub's owner "
                    + "(user \(status.st_uid)) has not granted it")
        }
    }

    /// The open session, whoever opened it, when it is still live.
    func liveSession() throws(HomeError) -> CommissioningSessionRecord {
        let session: CommissioningSessionRecord?
        do {
            session = try store.commissioningSession()
        } catch {
            throw HomeError(error)
        }
        guard let session, !session.isAbandoned(now: Date()) else {
            throw HomeError(.failedPrecondition, HubStoreError.noCommissioningSession.description)
        }
        return session
    }
}
