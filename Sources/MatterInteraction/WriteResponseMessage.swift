import MatterTLV

// Matter Core §10.7.7 WriteResponseMessage
public struct WriteResponseMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.writeResponse

    public var writeResponses: [AttributeStatusIB]
    public var interactionModelRevision: UInt8?

    public init(
        writeResponses: [AttributeStatusIB],
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.writeResponses = writeResponses
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, writeResponses)
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            writeResponses: try fields.required(0),
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag))
    }
}
