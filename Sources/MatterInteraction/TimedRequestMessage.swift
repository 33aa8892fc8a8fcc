import MatterTLV

// Matter Core §10.7.8 TimedRequestMessage
public struct TimedRequestMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.timedRequest

    /// Milliseconds within which the following write or invoke must arrive.
    public var timeout: UInt16
    public var interactionModelRevision: UInt8?

    public init(timeout: UInt16, interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision) {
        self.timeout = timeout
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, timeout)
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            timeout: try fields.required(0),
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag))
    }
}
