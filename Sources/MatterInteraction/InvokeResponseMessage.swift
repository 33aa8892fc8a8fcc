import MatterTLV

// Matter Core §10.7.10 InvokeResponseMessage
public struct InvokeResponseMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.invokeResponse

    /// Kept for backward compatibility; receivers ignore it.
    public var suppressResponse: Bool
    public var invokeResponses: [InvokeResponseIB]
    public var moreChunkedMessages: Bool
    public var interactionModelRevision: UInt8?

    public init(
        suppressResponse: Bool = false, invokeResponses: [InvokeResponseIB], moreChunkedMessages: Bool = false,
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.suppressResponse = suppressResponse
        self.invokeResponses = invokeResponses
        self.moreChunkedMessages = moreChunkedMessages
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, suppressResponse)
            TLVElement.context(1, invokeResponses)
            if moreChunkedMessages { TLVElement.context(2, true) }
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    /// Lenient where real peers are: a missing SuppressResponse reads as false.
    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            suppressResponse: try fields.optional(0) ?? false, invokeResponses: try fields.required(1),
            moreChunkedMessages: try fields.optional(2) ?? false,
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag)
        )
    }
}
