import HubWire

/// Whether the caller may add (and so remove) devices in the structure: done when it may, `permissionDenied` when
/// not.
public struct CheckCommissioningPermission: HubOperation {
    public static let name = "checkCommissioningPermission"
    public let structureID: String

    public init(structureID: String) {
        self.structureID = structureID
    }

    public var access: HubAccess { .right(.devices, structureID: structureID) }
    public var summary: String { "check a permission" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        Done()
    }
}
