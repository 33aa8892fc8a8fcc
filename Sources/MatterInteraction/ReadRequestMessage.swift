import MatterTLV

// Matter Core §10.7.2 ReadRequestMessage
public struct ReadRequestMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.readRequest

    public var attributeRequests: [AttributePathIB]
    public var eventRequests: [EventPathIB]
    public var eventFilters: [EventFilterIB]
    /// Limits fabric-scoped lists to the entries of the reading fabric.
    public var isFabricFiltered: Bool
    public var dataVersionFilters: [DataVersionFilterIB]
    public var interactionModelRevision: UInt8?

    public init(
        attributeRequests: [AttributePathIB] = [], eventRequests: [EventPathIB] = [],
        eventFilters: [EventFilterIB] = [],
        isFabricFiltered: Bool = true, dataVersionFilters: [DataVersionFilterIB] = [],
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.attributeRequests = attributeRequests
        self.eventRequests = eventRequests
        self.eventFilters = eventFilters
        self.isFabricFiltered = isFabricFiltered
        self.dataVersionFilters = dataVersionFilters
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, attributeRequests.nonEmpty)
            TLVElement.context(1, eventRequests.nonEmpty)
            TLVElement.context(2, eventFilters.nonEmpty)
            TLVElement.context(3, isFabricFiltered)
            TLVElement.context(4, dataVersionFilters.nonEmpty)
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            attributeRequests: try fields.array(0), eventRequests: try fields.array(1),
            eventFilters: try fields.array(2),
            isFabricFiltered: try fields.required(3), dataVersionFilters: try fields.array(4),
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag)
        )
    }
}
