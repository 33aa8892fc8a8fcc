import MatterTLV

// Matter Core §10.7.1 StatusResponseMessage
public struct StatusResponseMessage: InteractionMessage {
    public static let opcode = InteractionModelOpcode.statusResponse

    public var status: InteractionModelStatus
    /// What the sender put in tag 0xFF; nil when it left it out.
    public var interactionModelRevision: UInt8?

    public init(
        status: InteractionModelStatus, interactionModelRevision: UInt8? = InteractionConstants.interactionModelRevision
    ) {
        self.status = status
        self.interactionModelRevision = interactionModelRevision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, status)
            TLVElement.context(InteractionConstants.revisionTag, interactionModelRevision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            status: try fields.required(0),
            interactionModelRevision: try fields.optional(InteractionConstants.revisionTag))
    }
}

extension InteractionError {
    /// The error a StatusResponse stands for where another message was due: its status, or why it is not one
    /// (SUCCESS answers nothing here).
    static func fromStatusResponse(
        _ payload: [UInt8], expecting: String, path: InteractionPath? = nil
    ) -> InteractionError {
        do {
            let response = try StatusResponseMessage(payload: payload)
            guard response.status != .success else {
                return .unexpectedMessage(opcode: InteractionModelOpcode.statusResponse.rawValue, expecting: expecting)
            }
            return .status(StatusIB(status: response.status), path: path)
        } catch {
            return error
        }
    }
}
