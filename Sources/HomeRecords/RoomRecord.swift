/// A room as stored: a name, unique in the home whatever its case, in one structure.
public struct RoomRecord: Sendable, Hashable, Identifiable, Codable {
    public var id: String
    public var name: String
    public var structureID: String

    public init(id: String, name: String, structureID: String) {
        self.id = id
        self.name = name
        self.structureID = structureID
    }
}
