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
        _ = try await context.perform(.prepareCommissioning(structureID: id))
    }

    /// Closes this process's session and returns the IDs of the devices added in it (as `HomeDevice.id`). Throws
    /// `failedPrecondition` when no session of this process is open or nothing was commissioned in it.
    public func completeMatterCommissioning() async throws(HomeError) -> Set<String> {
        guard case .names(let ids) = try await context.perform(.completeCommissioning(structureID: id)) else {
            throw HomeError(.internal, "the hub answered completing the session with something else")
        }
        return Set(ids)
    }

    /// Closes this process's session (or an abandoned one) and undoes it: each device commissioned in it is asked to
    /// leave the hub's fabric (a device out of reach keeps a fabric nobody uses; a device part-way through is rolled
    /// back by its fail-safe), and nothing of it stays in the store. Without such a session it does nothing. It cannot
    /// fail: should the store refuse the change, the session holds the home until its deadline.
    public func cancelMatterCommissioning() async {
        _ = try? await context.perform(.cancelCommissioning)
    }

    /// Lets the local user `uid` add devices to this structure; only the hub's owner may grant.
    public func grantCommissioning(toUser uid: UInt32) async throws(HomeError) {
        _ = try await context.perform(.grantCommissioning(uid: uid, structureID: id))
    }

    /// Takes the grant back; the user's next call is refused.
    public func revokeCommissioning(fromUser uid: UInt32) async throws(HomeError) {
        _ = try await context.perform(.revokeCommissioning(uid: uid, structureID: id))
    }
}
