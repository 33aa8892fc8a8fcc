import MatterTLV

// Matter Core §10.7.9 InvokeRequestMessage
public struct InvokeRequestMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.invokeRequest

    public var suppressResponse: Bool
    /// True inside a timed interaction (after a TimedRequest answered with SUCCESS).
    public var timedRequest: Bool
    public var invokeRequests: [CommandDataIB]
    public var interactionModelRevision: UInt8?

    public init(
        suppressResponse: Bool = false, timedRequest: Bool = false, invokeRequests: [CommandDataIB],
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.suppressResponse = suppressResponse
        self.timedRequest = timedRequest
        self.invokeRequests = invokeRequests
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, suppressResponse)
            TLVElement.context(1, timedRequest)
            TLVElement.context(2, invokeRequests)
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            suppressResponse: try fields.required(0), timedRequest: try fields.required(1),
            invokeRequests: try fields.required(2),
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag)
        )
    }
}
