import HomeHub
import HomeRecords
import HubWire

/// A structure renamed; replies the name as the hub kept it. The default structure's name is the label of the hub's
/// fabric on every node, so other ecosystems show the new one.
public struct RenameStructure: HubOperation {
    public static let name = "renameStructure"
    public let structureID: String
    public let newName: String

    public init(structureID: String, name: String) {
        self.structureID = structureID
        self.newName = name
    }

    public var access: HubAccess { .member }
    public var summary: String { "rename a structure" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> String {
        let engine = scope.engine
        let valid = try HomeName.validated(newName, naming: "structure")
        try await engine.write { store async throws(HubStoreError) in
            try await store.renameStructure(structureID, to: valid)
        }
        if engine.model.snapshot.defaultStructureID == structureID {
            engine.live.relabelFabric(FabricLabel.of(home: valid))
        }
        return valid
    }
}
