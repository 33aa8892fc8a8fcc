import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// A named group of devices, whatever their rooms ("Downstairs lights"): one Matter group (Matter Core §4.16) that the
/// hub gives its devices, so a command to it reaches them all in one message. Group names are unique in the home,
/// whatever their case.
public struct DeviceGroup: Identifiable, Hashable, Sendable {
    /// Its Matter group ID on the hub's fabric.
    public let id: UInt16
    public let name: String
    public let structureID: String
    /// The IDs of its devices (`HomeDevice.id`, one per part), in ascending order.
    public let deviceIDs: [String]
    let members: [DeviceID]
    let context: HomeContext

    init(_ record: GroupRecord, context: HomeContext) {
        id = record.id
        name = record.name
        structureID = record.structureID
        members = record.members
        deviceIDs = record.members.map(\.description)
        self.context = context
    }

    /// Sends `command` to every device of the group at once: one Matter group message to the devices that hold the
    /// group, unicast to the rest; the result is each one's confirmation through its subscription, as `Room.send`.
    public func send(
        _ command: GroupCommand.Command, unicastOnly: Bool = false
    ) async throws(HomeError) -> Room.CommandResult {
        try await context.perform(GroupCommand(.group(id), command: command, unicastOnly: unicastOnly))
    }

    /// Adds the devices (every part of a multipart one) and returns the group as it is now.
    public func add(_ devices: [HomeDevice]) async throws(HomeError) -> DeviceGroup {
        try await change(adding: devices.flatMap(\.parts), removing: [])
    }

    /// Takes the devices out (a device not in the group is no error) and returns the group as it is now.
    public func remove(_ devices: [HomeDevice]) async throws(HomeError) -> DeviceGroup {
        try await change(adding: [], removing: devices.flatMap(\.parts))
    }

    private func change(adding: [DeviceID], removing: [DeviceID]) async throws(HomeError) -> DeviceGroup {
        _ = try await context.perform(ChangeGroup(groupID: id, adding: adding, removing: removing))
        let members = Set(self.members).union(adding).subtracting(removing).sorted()
        return DeviceGroup(
            GroupRecord(id: id, name: name, structureID: structureID, members: members), context: context)
    }

    public static func == (lhs: DeviceGroup, rhs: DeviceGroup) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.structureID == rhs.structureID && lhs.members == rhs.members
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(members)
    }
}

extension Home {
    /// The home's named groups of devices.
    public func groups() -> Query<DeviceGroup> {
        context.query { context throws(HomeError) in
            Set(context.model.snapshot.groups.map { DeviceGroup($0, context: context) })
        }
    }

    /// Creates a named group of `devices` in `structure`, or in the default structure. The name is cut to 60 Unicode
    /// code points; an empty or white-space name is an `invalidArgument` error, another group's name `alreadyExists`.
    public func createGroup(
        name: String, devices: [HomeDevice], in structure: Structure? = nil
    ) async throws(HomeError) -> DeviceGroup {
        DeviceGroup(
            try await context.perform(
                CreateGroup(name: name, structureID: structure?.id, members: devices.flatMap(\.parts))),
            context: context)
    }

    /// Deletes the group; its devices stay in the home.
    public func deleteGroup(_ group: DeviceGroup) async throws(HomeError) {
        _ = try await context.perform(DeleteGroup(groupID: group.id))
    }
}
