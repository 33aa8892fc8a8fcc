import Foundation

/// One batch of the hub's changes with the data they name: the structures, rooms and groups when they changed, the
/// devices of every node whose devices changed, and the connection state of every node whose connectivity or
/// record changed (nil: the hub no longer follows it). Attribute values and events travel in the changes.
public struct MirroredChanges: Sendable, Codable, Equatable {
    public let changes: [HomeChange]
    package let structures: [StructureRecord]?
    package let rooms: [RoomRecord]?
    package let groups: [GroupRecord]?
    package let devices: [UInt64: [DeviceRecord]]
    package let states: [UInt64: ConnectionState?]
    /// Each node whose `interruptedNode` change is in the batch: its record, nil once it left the list.
    package let interrupted: [UInt64: NodeRecord?]

    /// What a mirror needs to replay `changes`, read from `snapshot`, the model they led to.
    public init(_ changes: [HomeChange], snapshot: HomeSnapshot) {
        self.changes = changes
        var shape = false
        var devices: [UInt64: [DeviceRecord]] = [:]
        var states: [UInt64: ConnectionState?] = [:]
        var interrupted: [UInt64: NodeRecord?] = [:]
        for change in changes {
            switch change {
            case .structureAdded, .structureRenamed, .structureRemoved, .roomAdded, .roomRenamed, .roomRemoved,
                .groupAdded, .groupChanged, .groupRemoved:
                shape = true
            case .deviceAdded(let id), .deviceRemoved(let id), .deviceRenamed(let id), .deviceMoved(let id):
                devices[id.nodeID] = snapshot.devices[id.nodeID] ?? []
            case .typesChanged(let nodeID):
                devices[nodeID] = snapshot.devices[nodeID] ?? []
            case .nodeUpdated(let nodeID):
                devices[nodeID] = snapshot.devices[nodeID] ?? []
                states[nodeID] = .some(snapshot.views[nodeID]?.state)
            case .connectivity(let nodeID, _):
                states[nodeID] = .some(snapshot.views[nodeID]?.state)
            case .interruptedNode(let nodeID):
                interrupted[nodeID] = .some(snapshot.interrupted[nodeID])
            case .attributes, .event, .unreadable:
                break
            }
        }
        structures = shape ? snapshot.structures : nil
        rooms = shape ? snapshot.rooms : nil
        groups = shape ? snapshot.groups : nil
        self.devices = devices
        self.states = states
        self.interrupted = interrupted
    }
}
