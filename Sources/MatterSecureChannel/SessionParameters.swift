import MatterTLV

// Matter Core §4.12.8 session-parameter-struct: what a node tells its peer about itself while a session
// is established (MRP intervals, revisions). Every member is optional on the wire; devices send few.
public struct SessionParameters: Hashable, Sendable, TLVCodable {
    /// Milliseconds; the peer's MRP idle retransmission interval.
    public var idleInterval: UInt32?
    /// Milliseconds; the peer's MRP active retransmission interval.
    public var activeInterval: UInt32?
    /// Milliseconds the peer stays active after its last message.
    public var activeThreshold: UInt16?
    public var dataModelRevision: UInt16?
    public var interactionModelRevision: UInt16?
    public var specificationVersion: UInt32?
    public var maxPathsPerInvoke: UInt16?

    public init(
        idleInterval: UInt32? = nil, activeInterval: UInt32? = nil, activeThreshold: UInt16? = nil,
        dataModelRevision: UInt16? = nil, interactionModelRevision: UInt16? = nil,
        specificationVersion: UInt32? = nil, maxPathsPerInvoke: UInt16? = nil
    ) {
        self.idleInterval = idleInterval
        self.activeInterval = activeInterval
        self.activeThreshold = activeThreshold
        self.dataModelRevision = dataModelRevision
        self.interactionModelRevision = interactionModelRevision
        self.specificationVersion = specificationVersion
        self.maxPathsPerInvoke = maxPathsPerInvoke
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, idleInterval)
            TLVElement.context(2, activeInterval)
            TLVElement.context(3, activeThreshold)
            TLVElement.context(4, dataModelRevision)
            TLVElement.context(5, interactionModelRevision)
            TLVElement.context(6, specificationVersion)
            TLVElement.context(7, maxPathsPerInvoke)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            idleInterval: try fields.optional(1), activeInterval: try fields.optional(2),
            activeThreshold: try fields.optional(3), dataModelRevision: try fields.optional(4),
            interactionModelRevision: try fields.optional(5), specificationVersion: try fields.optional(6),
            maxPathsPerInvoke: try fields.optional(7)
        )
    }
}
