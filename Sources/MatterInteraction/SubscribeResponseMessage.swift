import MatterTLV

// Matter Core §10.7.5 SubscribeResponseMessage (tag 1, the old MinInterval, is no longer sent)
public struct SubscribeResponseMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.subscribeResponse

    public var subscriptionID: UInt32
    /// The publisher's final maximum interval in seconds.
    public var maxInterval: UInt16
    public var interactionModelRevision: UInt8?

    public init(
        subscriptionID: UInt32, maxInterval: UInt16,
        interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.subscriptionID = subscriptionID
        self.maxInterval = maxInterval
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, subscriptionID)
            TLVElement.context(2, maxInterval)
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            subscriptionID: try fields.required(0), maxInterval: try fields.required(2),
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag)
        )
    }
}
