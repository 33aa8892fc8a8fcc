import MatterTLV

// Matter Core §8.10 Status Codes (as listed by connectedhomeip's StatusCodeList.h; deprecated codes omitted)
/// An Interaction Model status code. Codes this table does not know still decode, and describe themselves by number.
public struct InteractionModelStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let success = Self(rawValue: 0x00)
    public static let failure = Self(rawValue: 0x01)
    public static let invalidSubscription = Self(rawValue: 0x7D)
    public static let unsupportedAccess = Self(rawValue: 0x7E)
    public static let unsupportedEndpoint = Self(rawValue: 0x7F)
    public static let invalidAction = Self(rawValue: 0x80)
    public static let unsupportedCommand = Self(rawValue: 0x81)
    public static let invalidCommand = Self(rawValue: 0x85)
    public static let unsupportedAttribute = Self(rawValue: 0x86)
    public static let constraintError = Self(rawValue: 0x87)
    public static let unsupportedWrite = Self(rawValue: 0x88)
    public static let resourceExhausted = Self(rawValue: 0x89)
    public static let notFound = Self(rawValue: 0x8B)
    public static let unreportableAttribute = Self(rawValue: 0x8C)
    public static let invalidDataType = Self(rawValue: 0x8D)
    public static let unsupportedRead = Self(rawValue: 0x8F)
    public static let dataVersionMismatch = Self(rawValue: 0x92)
    public static let timeout = Self(rawValue: 0x94)
    /// Listed by Matter 1.0 and still sent by CircuitMatter; later revisions dropped it.
    public static let unsupportedNode = Self(rawValue: 0x9B)
    public static let busy = Self(rawValue: 0x9C)
    public static let accessRestricted = Self(rawValue: 0x9D)
    public static let unsupportedCluster = Self(rawValue: 0xC3)
    public static let noUpstreamSubscription = Self(rawValue: 0xC5)
    public static let needsTimedInteraction = Self(rawValue: 0xC6)
    public static let unsupportedEvent = Self(rawValue: 0xC7)
    public static let pathsExhausted = Self(rawValue: 0xC8)
    public static let timedRequestMismatch = Self(rawValue: 0xC9)
    public static let failsafeRequired = Self(rawValue: 0xCA)
    public static let invalidInState = Self(rawValue: 0xCB)
    public static let noCommandResponse = Self(rawValue: 0xCC)

    /// Every code of the table above, in numeric order.
    public static let known: [InteractionModelStatus] = [
        .success, .failure, .invalidSubscription, .unsupportedAccess, .unsupportedEndpoint, .invalidAction,
        .unsupportedCommand, .invalidCommand, .unsupportedAttribute, .constraintError, .unsupportedWrite,
        .resourceExhausted, .notFound, .unreportableAttribute, .invalidDataType, .unsupportedRead,
        .dataVersionMismatch, .timeout, .unsupportedNode, .busy, .accessRestricted, .unsupportedCluster,
        .noUpstreamSubscription, .needsTimedInteraction, .unsupportedEvent, .pathsExhausted,
        .timedRequestMismatch, .failsafeRequired, .invalidInState, .noCommandResponse,
    ]

    /// The spec's name, e.g. "UNSUPPORTED_COMMAND"; "STATUS_0xNN" for a code not in the table.
    public var name: String {
        entry?.name ?? "STATUS_0x" + String(rawValue, radix: 16, uppercase: true).leftPadded(to: 2)
    }

    /// What the code means for the one who sent the request.
    public var explanation: String {
        entry?.explanation ?? "a status code this controller does not know"
    }

    /// "UNSUPPORTED_COMMAND (the device does not implement this command)".
    public var description: String {
        "\(name) (\(explanation))"
    }

    private var entry: (name: String, explanation: String)? {
        switch self {
        case .success: ("SUCCESS", "the operation succeeded")
        case .failure: ("FAILURE", "the operation failed and the device gave no specific reason")
        case .invalidSubscription: ("INVALID_SUBSCRIPTION", "the device has no active subscription with this ID")
        case .unsupportedAccess: ("UNSUPPORTED_ACCESS", "this controller lacks the privilege the operation needs")
        case .unsupportedEndpoint: ("UNSUPPORTED_ENDPOINT", "the device has no such endpoint")
        case .invalidAction: ("INVALID_ACTION", "the request was malformed or had invalid fields, so nothing was done")
        case .unsupportedCommand: ("UNSUPPORTED_COMMAND", "the device does not implement this command")
        case .invalidCommand:
            ("INVALID_COMMAND", "the command's fields were malformed, missing or invalid, so it was not run")
        case .unsupportedAttribute:
            ("UNSUPPORTED_ATTRIBUTE", "the device does not implement this attribute, field or list entry")
        case .constraintError:
            ("CONSTRAINT_ERROR", "the value is out of range or reserved; the attribute keeps its old value")
        case .unsupportedWrite: ("UNSUPPORTED_WRITE", "the attribute is read-only")
        case .resourceExhausted: ("RESOURCE_EXHAUSTED", "the device ran out of resources for this operation")
        case .notFound: ("NOT_FOUND", "the device could not find the indicated entry")
        case .unreportableAttribute: ("UNREPORTABLE_ATTRIBUTE", "the device cannot report this attribute")
        case .invalidDataType:
            ("INVALID_DATA_TYPE", "the value has the wrong data type for this field, so nothing was done")
        case .unsupportedRead: ("UNSUPPORTED_READ", "the attribute is write-only")
        case .dataVersionMismatch:
            ("DATA_VERSION_MISMATCH", "the cluster's data version no longer matches the one the request named")
        case .timeout: ("TIMEOUT", "the device aborted the transaction because its time ran out")
        case .unsupportedNode: ("UNSUPPORTED_NODE", "the device is not the node the request names")
        case .busy: ("BUSY", "the device is busy with another action; try again later")
        case .accessRestricted:
            ("ACCESS_RESTRICTED", "access is restricted by the device's current access restrictions")
        case .unsupportedCluster: ("UNSUPPORTED_CLUSTER", "the endpoint does not have this cluster")
        case .noUpstreamSubscription: ("NO_UPSTREAM_SUBSCRIPTION", "the proxy has no subscription to the source")
        case .needsTimedInteraction:
            ("NEEDS_TIMED_INTERACTION", "this write or command must be sent as a timed interaction")
        case .unsupportedEvent: ("UNSUPPORTED_EVENT", "the cluster does not have this event")
        case .pathsExhausted: ("PATHS_EXHAUSTED", "the device cannot handle this many paths in one request")
        case .timedRequestMismatch:
            (
                "TIMED_REQUEST_MISMATCH",
                "the request's TimedRequest flag does not match whether a timed interaction is under way"
            )
        case .failsafeRequired: ("FAILSAFE_REQUIRED", "the command needs an armed fail-safe")
        case .invalidInState: ("INVALID_IN_STATE", "the device cannot do this in its current operational state")
        case .noCommandResponse: ("NO_COMMAND_RESPONSE", "the device sent no response for one of the commands")
        default: nil
        }
    }
}

extension InteractionModelStatus: TLVCodable {
    public func tlvValue() -> TLVValue { .unsigned(UInt64(rawValue)) }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(rawValue: try UInt8(tlv: element))
    }
}

/// A status is what a device answers instead of a value, so `Result<TLVValue, InteractionModelStatus>` can say so.
extension InteractionModelStatus: Error {}
