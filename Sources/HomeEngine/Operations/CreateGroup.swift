import HomeHub
import HomeRecords
import HubWire

/// A named group of devices created in a structure (nil: the home's default one): one Matter group the hub gives its
/// devices, whatever their rooms.
public struct CreateGroup: HubOperation {
    public static let name = "createGroup"
    public let groupName: String
    public let structureID: String?
    public let members: [DeviceID]

    public init(name: String, structureID: String?, members: [DeviceID]) {
        self.groupName = name
        self.structureID = structureID
        self.members = members
    }

    public var access: HubAccess { .member }
    public var summary: String { "create a group" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> GroupRecord {
        let engine = scope.engine
        let valid = try HomeName.validated(groupName, naming: "group")
        let structure = try engine.structureID(structureID)
        return try await engine.write { store async throws(HubStoreError) in
            try await store.createGroup(named: valid, in: structure, members: members)
        }
    }
}
