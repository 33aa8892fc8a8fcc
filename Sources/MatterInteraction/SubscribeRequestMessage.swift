import MatterTLV

// Matter Core §10.7.4 SubscribeRequestMessage (tag 6 is unused by the spec)
public struct SubscribeRequestMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.subscribeRequest

    /// False asks the publisher to end this controller's other subscriptions.
    public var keepSubscriptions: Bool
    /// Seconds the publisher waits at least between reports.
    public var minIntervalFloor: UInt16
    /// Seconds the publisher may go at most without a report; it picks the final value, at least this.
    public var maxIntervalCeiling: UInt16
    public var attributeRequests: [AttributePathIB]
    public var eventRequests: [EventPathIB]
    public var eventFilters: [EventFilterIB]
    public var isFabricFiltered: Bool
    public var dataVersionFilters: [DataVersionFilterIB]
    public var interactionModelRevision: UInt8?

    public init(
        keepSubscriptions: Bool = true, minIntervalFloor: UInt16, maxIntervalCeiling: UInt16,
        attributeRequests: [AttributePathIB] = [], eventRequests: [EventPathIB] = [],
        eventFilters: [EventFilterIB] = [],
        isFabricFiltered: Bool = true, dataVersionFilters: [DataVersionFilterIB] = [],
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.keepSubscriptions = keepSubscriptions
        self.minIntervalFloor = minIntervalFloor
        self.maxIntervalCeiling = maxIntervalCeiling
        self.attributeRequests = attributeRequests
        self.eventRequests = eventRequests
        self.eventFilters = eventFilters
        self.isFabricFiltered = isFabricFiltered
        self.dataVersionFilters = dataVersionFilters
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, keepSubscriptions)
            TLVElement.context(1, minIntervalFloor)
            TLVElement.context(2, maxIntervalCeiling)
            TLVElement.context(3, attributeRequests.nonEmpty)
            TLVElement.context(4, eventRequests.nonEmpty)
            TLVElement.context(5, eventFilters.nonEmpty)
            TLVElement.context(7, isFabricFiltered)
            TLVElement.context(8, dataVersionFilters.nonEmpty)
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            keepSubscriptions: try fields.required(0), minIntervalFloor: try fields.required(1),
            maxIntervalCeiling: try fields.required(2), attributeRequests: try fields.array(3),
            eventRequests: try fields.array(4), eventFilters: try fields.array(5),
            isFabricFiltered: try fields.required(7),
            dataVersionFilters: try fields.array(8),
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag)
        )
    }
}
