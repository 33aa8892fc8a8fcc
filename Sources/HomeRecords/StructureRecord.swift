/// A structure as stored: a home (a house, a flat) that holds rooms. The hub creates one, "Home", on first open.
public struct StructureRecord: Sendable, Hashable, Identifiable, Codable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
