import HomeHub
import HomeRecords
import HubWire

/// Devices added to a named group and taken out of it; the hub gives each its groups again.
public struct ChangeGroup: HubOperation {
    public static let name = "changeGroup"
    public let groupID: UInt16
    public let adding: [DeviceID]
    public let removing: [DeviceID]

    public init(groupID: UInt16, adding: [DeviceID], removing: [DeviceID]) {
        self.groupID = groupID
        self.adding = adding
        self.removing = removing
    }

    public var access: HubAccess { .member }
    public var summary: String { "change a group" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        try await scope.engine.write { store async throws(HubStoreError) in
            try await store.changeGroup(groupID, adding: adding, removing: removing)
        }
        return Done()
    }
}
