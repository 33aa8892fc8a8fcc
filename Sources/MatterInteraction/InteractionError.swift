import MatterTLV

/// Why an interaction failed.
public enum InteractionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer answered with a status other than SUCCESS; `path` names what it applies to, when known.
    case status(StatusIB, path: InteractionPath?)
    /// A message of this opcode could not be decoded.
    case malformed(InteractionModelOpcode, TLVError)
    /// A message arrived that this interaction does not expect now.
    case unexpectedMessage(opcode: UInt8, expecting: String)
    /// A subscription's report or response carried another subscription's ID.
    case subscriptionMismatch(expected: UInt32, received: UInt32)
    /// The InvokeResponse had no entry for the command that was sent.
    case missingCommandResponse(CommandPathIB)
    /// The peer kept chunking one report beyond `InteractionConstants.maximumReportChunks`.
    case tooManyChunks(limit: Int)

    /// The status the peer sent, when the failure is one.
    public var status: InteractionModelStatus? {
        guard case .status(let status, _) = self else { return nil }
        return status.status
    }

    public var description: String {
        switch self {
        case .status(let status, let path?):
            "\(path): \(status)"
        case .status(let status, nil):
            "the device answered \(status)"
        case .malformed(let opcode, let error):
            "malformed \(opcode): \(error)"
        case .unexpectedMessage(let opcode, let expecting):
            "unexpected \(InteractionModelOpcode.describe(opcode)) while waiting for \(expecting)"
        case .subscriptionMismatch(let expected, let received):
            "report for subscription \(received) arrived on subscription \(expected)"
        case .missingCommandResponse(let path):
            "\(path): the device's InvokeResponse has no response for this command"
        case .tooManyChunks(let limit):
            "the device chunked one report into more than \(limit) messages"
        }
    }
}
