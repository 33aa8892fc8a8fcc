import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// A home's structure (a house, a flat): it holds rooms. The hub has one, "Home", from its first start.
public struct Structure: Identifiable, Hashable, Sendable {
    public let id: String
    public let name: String
    let context: HomeContext

    init(_ record: StructureRecord, context: HomeContext) {
        id = record.id
        name = record.name
        self.context = context
    }

    /// Renames the structure and returns it renamed; this value stays as it was. The name is cut to 60 Unicode code
    /// points; an empty or white-space name is an `invalidArgument` error.
    public func setName(_ name: String) async throws(HomeError) -> Structure {
        let valid = try await context.perform(RenameStructure(structureID: id, name: name))
        return Structure(StructureRecord(id: id, name: valid), context: context)
    }

    public static func == (lhs: Structure, rhs: Structure) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
    }
}
