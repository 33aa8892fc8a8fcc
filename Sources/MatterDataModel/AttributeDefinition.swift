import MatterTLV

// Matter Core §7.12 Attribute: one attribute of a cluster, the Swift type of its value and its access.
public struct AttributeDefinition<Value: TLVCodable & Sendable>: Hashable, Sendable {
    public let cluster: ClusterID
    public let id: AttributeID
    public let name: String
    /// nil for a write-only attribute.
    public let readPrivilege: Privilege?
    /// nil for a read-only attribute.
    public let writePrivilege: Privilege?
    /// The value may be null (`Value` is then a `Nullable`).
    public let isNullable: Bool
    /// A device may lack the attribute (its conformance is not mandatory).
    public let isOptional: Bool
    /// Matter Core §8.7 Timed Interaction: a write must follow a TimedRequest.
    public let requiresTimedWrite: Bool

    public var isReadable: Bool { readPrivilege != nil }
    public var isWritable: Bool { writePrivilege != nil }

    public init(
        cluster: ClusterID, id: AttributeID, name: String, read readPrivilege: Privilege? = .view,
        write writePrivilege: Privilege? = nil, nullable isNullable: Bool = false, optional isOptional: Bool = false,
        timedWrite requiresTimedWrite: Bool = false
    ) {
        self.cluster = cluster
        self.id = id
        self.name = name
        self.readPrivilege = readPrivilege
        self.writePrivilege = writePrivilege
        self.isNullable = isNullable
        self.isOptional = isOptional
        self.requiresTimedWrite = requiresTimedWrite
    }
}
