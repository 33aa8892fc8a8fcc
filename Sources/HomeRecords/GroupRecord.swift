/// A named group of devices as stored (Matter Core §4.16: one Matter group of the hub's fabric): a name, unique in the
/// home whatever its case, in one structure, and its devices, which may be in any rooms. Identified by its group ID.
public struct GroupRecord: Sendable, Hashable, Identifiable, Codable {
    public var id: UInt16
    public var name: String
    public var structureID: String
    /// In ascending order.
    public var members: [DeviceID]

    public init(id: UInt16, name: String, structureID: String, members: [DeviceID]) {
        self.id = id
        self.name = name
        self.structureID = structureID
        self.members = members
    }
}
