import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// A room of a structure. Room names are unique in the home, whatever their case.
public struct Room: Identifiable, Hashable, Sendable {
    public let id: String
    public let name: String
    public let structureID: String
    let context: HomeContext

    init(_ record: RoomRecord, context: HomeContext) {
        id = record.id
        name = record.name
        structureID = record.structureID
        self.context = context
    }

    /// Renames the room and returns it renamed; this value stays as it was. The name is cut to 60 Unicode code points;
    /// an empty or white-space name is an `invalidArgument` error, another room's name an `alreadyExists` one.
    public func setName(_ name: String) async throws(HomeError) -> Room {
        let valid = try await context.perform(RenameRoom(roomID: id, name: name))
        return Room(RoomRecord(id: id, name: valid, structureID: structureID), context: context)
    }

    /// What a room command did: who acted, how (one group message, or unicast to a device that cannot hear the room's
    /// group), and when each confirmed through its subscription.
    public typealias CommandResult = GroupCommand.Reply

    /// Sends `command` to every device of the room at once: one Matter group message to the devices that hold the
    /// room's group, unicast to the rest. Returns once every member confirmed, or after three seconds, with each one's
    /// confirmation time (nil: it did not confirm). A room with no device that takes the command is a
    /// `failedPrecondition` error. `unicastOnly` sends no group message (for a network that drops multicast).
    public func send(
        _ command: GroupCommand.Command, unicastOnly: Bool = false
    ) async throws(HomeError) -> CommandResult {
        try await context.perform(GroupCommand(.room(id), command: command, unicastOnly: unicastOnly))
    }

    public static func == (lhs: Room, rhs: Room) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.structureID == rhs.structureID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(structureID)
    }
}
