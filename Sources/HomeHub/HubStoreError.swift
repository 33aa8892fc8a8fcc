import HomeRecords
import MatterPlatform

/// Why the hub's store refused a read or write.
public enum HubStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    case database(SQLiteError)
    case newerSchema(found: Int, supported: Int)
    case fabricExists(UInt64)
    case nodeExists(UInt64, NodeRecord.CommissioningState)
    case unknownNode(UInt64)
    case wrongState(UInt64, NodeRecord.CommissioningState, expected: NodeRecord.CommissioningState)
    case corrupt(table: String, column: String, reason: String)
    case invalidName(String)
    case unknownDevice(DeviceID)
    case unknownRoom(String)
    case unknownStructure(String)
    case roomExists(String)
    case unknownGroup(UInt16)
    case groupExists(String)
    /// Every application group ID (0x0001 to 0xFEFF) is a room's or a group's.
    case groupIDsExhausted
    case commissioningInProgress(ProcessIdentity)
    case noCommissioningSession
    case nothingCommissioned
    /// Another writer changed the home during each of this many reads of it.
    case changing(attempts: Int)

    public var description: String {
        switch self {
        case .database(let error):
            "\(error)"
        case .newerSchema(let found, let supported):
            "the database has schema version \(found), newer than the \(supported) this build knows: use a newer swift-home"
        case .fabricExists(let fabricID):
            "the hub already has fabric 0x\(hex(fabricID)); a hub has exactly one"
        case .nodeExists(let nodeID, let state):
            "node 0x\(hex(nodeID)) is already stored (\(state.rawValue))"
        case .unknownNode(let nodeID):
            "no node 0x\(hex(nodeID)) in the store"
        case .wrongState(let nodeID, let state, let expected):
            "node 0x\(hex(nodeID)) is \(state.rawValue), not \(expected.rawValue)"
        case .invalidName(let name):
            "invalid name \"\(name)\": a name needs at least one character that is not a space"
        case .unknownDevice(let id):
            "no device \(id) in the store"
        case .unknownRoom(let roomID):
            "no room \(roomID) in the store"
        case .unknownStructure(let structureID):
            "no structure \(structureID) in the store"
        case .roomExists(let name):
            "a room named \"\(name)\" already exists"
        case .unknownGroup(let groupID):
            "no group 0x\(String(groupID, radix: 16, uppercase: true)) in the store"
        case .groupExists(let name):
            "a group named \"\(name)\" already exists"
        case .groupIDsExhausted:
            "every Matter group ID (0x0001 to 0xFEFF) is taken by a room or a group"
        case .commissioningInProgress(let owner):
            "another commissioning session is in progress (opened by \(owner))"
        case .noCommissioningSession:
            "no commissioning session is open: call prepareForMatterCommissioning() first"
        case .nothingCommissioned:
            "no device was commissioned in this commissioning session"
        case .changing(let attempts):
            "the home changed during each of \(attempts) reads of it; try again"
        case .corrupt(let table, let column, let reason):
            "the database is damaged: \(table).\(column): \(reason)"
        }
    }

    private func hex(_ value: UInt64) -> String {
        String(value, radix: 16, uppercase: true)
    }
}
