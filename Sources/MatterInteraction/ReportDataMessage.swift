import MatterTLV

// Matter Core §10.7.3 ReportDataMessage
public struct ReportDataMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.reportData

    /// Present when the report belongs to a subscription.
    public var subscriptionID: UInt32?
    public var attributeReports: [AttributeReportIB]
    public var eventReports: [EventReportIB]
    /// More chunks of the same report follow; each chunk is answered with a StatusResponse.
    public var moreChunkedMessages: Bool
    /// The receiver must not answer this message (the last chunk of a read, an empty keep-alive).
    public var suppressResponse: Bool
    public var interactionModelRevision: UInt8?

    public init(
        subscriptionID: UInt32? = nil, attributeReports: [AttributeReportIB] = [], eventReports: [EventReportIB] = [],
        moreChunkedMessages: Bool = false, suppressResponse: Bool = false,
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.subscriptionID = subscriptionID
        self.attributeReports = attributeReports
        self.eventReports = eventReports
        self.moreChunkedMessages = moreChunkedMessages
        self.suppressResponse = suppressResponse
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, subscriptionID)
            TLVElement.context(1, attributeReports.nonEmpty)
            TLVElement.context(2, eventReports.nonEmpty)
            if moreChunkedMessages { TLVElement.context(3, true) }
            if suppressResponse { TLVElement.context(4, true) }
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            subscriptionID: try fields.optional(0), attributeReports: try fields.array(1),
            eventReports: try fields.array(2),
            moreChunkedMessages: try fields.optional(3) ?? false, suppressResponse: try fields.optional(4) ?? false,
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag)
        )
    }
}
