import Foundation
import MatterInteraction
import MatterTLV

/// The home at one moment, as the hub's model holds it and its clients mirror it.
public struct HomeSnapshot: Sendable, Equatable, Codable {
    /// The default structure first.
    public package(set) var structures: [StructureRecord] = []
    /// In order of creation.
    public package(set) var rooms: [RoomRecord] = []
    /// The named groups of devices, in order of creation.
    public package(set) var groups: [GroupRecord] = []
    /// Each commissioned node's devices, in endpoint order.
    public package(set) var devices: [UInt64: [DeviceRecord]] = [:]
    /// What each followed node's connection last reported.
    public package(set) var views: [UInt64: NodeView] = [:]
    /// Each followed node's latest events, oldest first (at most `HubConstants.recentEventsPerNode`): what a
    /// consumer that fell behind catches up from.
    public package(set) var recentEvents: [UInt64: [NodeEvent]] = [:]
    /// The nodes an interrupted commissioning left (its process died after AddNOC, so the device may hold our
    /// NOC): not part of the home yet, but shown, so that a user can see and remove them. A node leaves this
    /// list when it is finished (its devices appear) or forgotten.
    public package(set) var interrupted: [UInt64: NodeRecord] = [:]

    /// The structure a device without a room belongs to.
    public var defaultStructureID: String? { structures.first?.id }

    /// The structure of a device in the room `roomID`: the room's, or the default one for a device in no room.
    public func structureID(ofRoom roomID: String?) -> String? {
        roomID.flatMap { id in rooms.first { $0.id == id }?.structureID } ?? defaultStructureID
    }

    /// An empty home.
    public init() {}
}

/// A node as its live connection last reported it.
public struct NodeView: Sendable, Hashable, Codable {
    public var cache: AttributeCache
    public var state: ConnectionState
    /// Which of its connection's moments this view shows. Numbered across the process (a newer connection's
    /// views are newer too), so the model can tell a view older than the one it holds; 0 for a view no
    /// connection made.
    public var revision: UInt64

    public init(cache: AttributeCache, state: ConnectionState, revision: UInt64 = 0) {
        self.cache = cache
        self.state = state
        self.revision = revision
    }
}

/// What changed, named precisely enough that a consumer re-reads only that.
public enum HomeChange: Sendable, Hashable, Codable {
    case structureAdded(String)
    case structureRenamed(String)
    case structureRemoved(String)
    case roomAdded(String)
    case roomRenamed(String)
    case roomRemoved(String)
    case groupAdded(UInt16)
    /// Renamed, or its devices changed.
    case groupChanged(UInt16)
    case groupRemoved(UInt16)
    case deviceAdded(DeviceID)
    case deviceRemoved(DeviceID)
    case deviceRenamed(DeviceID)
    /// Into another room, or into none.
    case deviceMoved(DeviceID)
    /// The node's record: its name, identity, addresses.
    case nodeUpdated(UInt64)
    /// The device types or semantic tags of some endpoint of the node.
    case typesChanged(UInt64)
    /// A node an interrupted commissioning left appeared in `Snapshot.interrupted`, changed there, or left it.
    case interruptedNode(UInt64)
    case connectivity(UInt64, ConnectionState)
    /// Attribute values of one endpoint, with their new values (nil: no longer reported).
    case attributes(nodeID: UInt64, endpoint: UInt16, values: [ConcreteAttributePath: TLVElement?])
    /// An event the node reported, once.
    case event(nodeID: UInt64, NodeEvent)
    /// The store holds what this build cannot read (why), so memory is behind it; nil: it is read again.
    case unreadable(String?)

    /// The node the change is about; nil for structures, rooms and groups.
    public var nodeID: UInt64? {
        switch self {
        case .structureAdded, .structureRenamed, .structureRemoved, .roomAdded, .roomRenamed, .roomRemoved,
            .groupAdded, .groupChanged, .groupRemoved, .unreadable:
            nil
        case .deviceAdded(let id), .deviceRemoved(let id), .deviceRenamed(let id), .deviceMoved(let id): id.nodeID
        case .nodeUpdated(let node), .typesChanged(let node), .interruptedNode(let node),
            .connectivity(let node, _):
            node
        case .attributes(let node, _, _), .event(let node, _): node
        }
    }

    /// Whether the change is about what a node reports (attribute values, events), which the home's own shape
    /// does not show.
    public var isReport: Bool {
        switch self {
        case .attributes, .event: true
        default: false
        }
    }
}
