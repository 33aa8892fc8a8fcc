import MatterTLV

// Matter Core §10.7.6 WriteRequestMessage
public struct WriteRequestMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.writeRequest

    public var suppressResponse: Bool
    /// True inside a timed interaction (after a TimedRequest answered with SUCCESS).
    public var timedRequest: Bool
    public var writeRequests: [AttributeDataIB]
    public var moreChunkedMessages: Bool
    public var interactionModelRevision: UInt8?

    public init(
        suppressResponse: Bool = false, timedRequest: Bool = false, writeRequests: [AttributeDataIB],
        moreChunkedMessages: Bool = false,
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.suppressResponse = suppressResponse
        self.timedRequest = timedRequest
        self.writeRequests = writeRequests
        self.moreChunkedMessages = moreChunkedMessages
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            if suppressResponse { TLVElement.context(0, true) }
            TLVElement.context(1, timedRequest)
            TLVElement.context(2, writeRequests)
            if moreChunkedMessages { TLVElement.context(3, true) }
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            suppressResponse: try fields.optional(0) ?? false, timedRequest: try fields.required(1),
            writeRequests: try fields.required(2), moreChunkedMessages: try fields.optional(3) ?? false,
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag)
        )
    }
}
