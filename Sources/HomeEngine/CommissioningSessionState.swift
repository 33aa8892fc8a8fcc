import Foundation
import HomeHub
import HomeRecords
import HubWire

/// The add-device session as the processes of the flow read it without asking the hub: a file in the state
/// directory that the engine rewrites whenever the session changes and deletes when it closes. The flow this project
/// follows writes two of its calls synchronously (`Structure.completeMatterCommissioning()`,
/// `HomeMatterCommissioner.fetchRooms()`), and the helper that calls the second may not have reached the hub yet: both
/// read this file, which lives in the app group container the app and its helper share.
public struct CommissioningSessionState: Codable, Sendable, Hashable {
    public let structureID: String
    /// The process that opened it: only it may complete it.
    public let owner: ProcessIdentity
    public let deadline: Date
    /// The structure's rooms, by name, in the order they were made.
    public let rooms: [String]
    /// The devices commissioned in it so far, as `HomeDevice.id` names them.
    public let devices: [String]

    static let fileName = "commissioning-session.json"

    /// The session the engine in `stateDirectory` last wrote, while it is open: nil when none is, or when its
    /// deadline passed. A file this build cannot read is an error that says so.
    public static func read(stateDirectory: String) throws(HomeError) -> CommissioningSessionState? {
        let path = (stateDirectory as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw HomeError(.permissionDenied, "cannot read the add-device session's state \(path)")
            }
            return nil
        }
        let state: CommissioningSessionState
        do {
            state = try JSONDecoder().decode(CommissioningSessionState.self, from: data)
        } catch {
            throw HomeError(.dataLoss, "the add-device session's state \(path) does not decode: \(error)")
        }
        return state.deadline > Date() ? state : nil
    }
}

extension HubEngine {
    /// Writes the session's state from the store, or deletes it when no session is open (owner-only, replaced whole:
    /// a reader never sees half of it). A store or disk that fails leaves the previous file, which the hub's own
    /// checks, made again when the session is completed, still hold to.
    func publishCommissioningSession() async {
        let path = (hub.directory.path as NSString).appendingPathComponent(CommissioningSessionState.fileName)
        guard let session = try? await store.commissioningSession(), !session.isAbandoned(now: Date()) else {
            try? FileManager.default.removeItem(atPath: path)
            return
        }
        guard let devices = try? await store.sessionDevices() else { return }
        let state = CommissioningSessionState(
            structureID: session.structureID, owner: session.owner, deadline: session.deadline,
            rooms: model.snapshot.rooms.filter { $0.structureID == session.structureID }.map(\.name),
            devices: devices.map(\.description))
        guard let data = try? JSONEncoder().encode(state) else { return }
        let temporary = path + ".new"
        // Owner-only, or readable by the group the hub's socket serves too: its members add devices through it.
        var attributes: [FileAttributeKey: Any] = [.posixPermissions: 0o600]
        if let group = socketGroup { attributes = [.posixPermissions: 0o640, .groupOwnerAccountID: group] }
        guard
            FileManager.default.createFile(atPath: temporary, contents: data, attributes: attributes)
                || FileManager.default.createFile(
                    atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
        else { return }
        _ = rename(temporary, path)
    }
}
