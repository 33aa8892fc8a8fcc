import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// A device of the home. With multipart devices off (the default) it is one application endpoint of a Matter node;
/// with them on, it is a whole node, and its parts are reached through `types.getAll(of:)`.
public struct HomeDevice: Identifiable, Hashable, Sendable {
    /// `<node ID, 16 hex digits>-<endpoint>` for an endpoint, `<node ID, 16 hex digits>` for a whole node.
    public let id: String
    public let name: String
    /// nil when the device is in no room.
    public let roomID: String?
    /// The structure of its room, or the default structure when it is in no room.
    public let structureID: String
    /// Every device the hub has is a Matter device; the field is there for bridged non-Matter devices later.
    public let isMatterDevice: Bool
    /// Its device types' connectivity, aggregated: `.unknown` until the device is followed live (its first
    /// subscription or command), then online or offline as the hub's own session (`.direct`) to it is.
    public let sourceConnectivity: SourceConnectivity
    public let types: DeviceTypeController
    /// The endpoint devices this device is made of: one, or every one of its node.
    let parts: [DeviceID]
    let nodeID: UInt64
    let isMultipart: Bool
    let context: HomeContext

    /// The device's events, as its node reports them: `events.subscribe(SwitchTrait.InitialPressEvent.self)`.
    public var events: EventController {
        EventController(nodeID: nodeID, endpoints: Set(parts.map(\.endpoint)), context: context)
    }

    /// Renames the device and returns it renamed; this value stays as it was. The name is cut to 60 Unicode code
    /// points without error; an empty or white-space name is an `invalidArgument` error.
    public func setName(_ name: String) async throws(HomeError) -> HomeDevice {
        let valid = try await context.perform(
            RenameDevice(nodeID: nodeID, parts: parts, multipart: isMultipart, name: name))
        return with(name: valid)
    }

    func with(name: String? = nil, room: Room? = nil) -> HomeDevice {
        HomeDevice(
            id: id, name: name ?? self.name, roomID: room?.id ?? roomID, structureID: room?.structureID ?? structureID,
            isMatterDevice: isMatterDevice, sourceConnectivity: sourceConnectivity, types: types, parts: parts,
            nodeID: nodeID,
            isMultipart: isMultipart, context: context)
    }

    public static func == (lhs: HomeDevice, rhs: HomeDevice) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.roomID == rhs.roomID && lhs.structureID == rhs.structureID
            && lhs.isMatterDevice == rhs.isMatterDevice && lhs.sourceConnectivity == rhs.sourceConnectivity
            && lhs.types == rhs.types
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(roomID)
        hasher.combine(structureID)
        hasher.combine(isMatterDevice)
        hasher.combine(sourceConnectivity)
        hasher.combine(types)
    }
}
