import HomeHub
import HomeRecords
import HubWire

/// A device renamed: the whole node when `multipart`, else each of `parts`. Replies the name as the hub kept it (cut
/// to 60 Unicode code points).
public struct RenameDevice: HubOperation {
    public static let name = "renameDevice"
    public let nodeID: UInt64
    public let parts: [DeviceID]
    public let multipart: Bool
    public let newName: String

    public init(nodeID: UInt64, parts: [DeviceID], multipart: Bool, name: String) {
        self.nodeID = nodeID
        self.parts = parts
        self.multipart = multipart
        self.newName = name
    }

    public var access: HubAccess { .member }
    public var summary: String { "rename a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> String {
        let valid = try HomeName.validated(newName, naming: "device")
        try await scope.engine.write { store async throws(HubStoreError) in
            if multipart {
                try await store.renameNode(nodeID, to: valid)
            } else {
                for part in parts { try await store.renameDevice(part, to: valid) }
            }
        }
        return valid
    }
}
