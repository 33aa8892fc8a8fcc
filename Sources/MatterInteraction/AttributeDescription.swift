// Matter Core §7.13 Attribute qualities (access, "T" timed write): what the engine needs of one attribute to
// expand wildcards and choose status codes before it asks the provider for the value.
public struct AttributeDescription: Hashable, Sendable {
    public var id: UInt32
    public var readPrivilege: AccessPrivilege
    /// nil for a read-only attribute (writes get UNSUPPORTED_WRITE).
    public var writePrivilege: AccessPrivilege?
    /// Writes outside a timed interaction get NEEDS_TIMED_INTERACTION.
    public var requiresTimedWrite: Bool

    public init(
        id: UInt32, readPrivilege: AccessPrivilege = .view, writePrivilege: AccessPrivilege? = nil,
        requiresTimedWrite: Bool = false
    ) {
        self.id = id
        self.readPrivilege = readPrivilege
        self.writePrivilege = writePrivilege
        self.requiresTimedWrite = requiresTimedWrite
    }
}
