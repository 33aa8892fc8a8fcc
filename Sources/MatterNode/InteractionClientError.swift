import MatterInteraction
import MatterMessaging
import MatterTLV

/// Why an interaction with a node failed, naming the operation: "invoke GeneralCommissioning.ArmFailSafe on
/// endpoint 0: UNSUPPORTED_COMMAND (…)", "read endpoint 0, cluster 0x0028, attribute 0x0001: timed out after 30 s".
public struct InteractionClientError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Error, Hashable, Sendable, CustomStringConvertible {
        /// The interaction failed: an error status from the device, or a message the transaction refused.
        case interaction(InteractionError)
        /// No message came from the device within this time.
        case timedOut(Duration)
        /// The exchange failed below the Interaction Model (no acknowledgement, session removed).
        case exchange(ExchangeError)
        /// The device answered with a message of another protocol.
        case unexpectedProtocol(ProtocolID, opcode: UInt8)
        /// The device answered with another response command than the one this command has.
        case unexpectedResponse(expected: UInt32?, received: UInt32?)
        /// The response command's fields do not decode as the command's response.
        case malformedResponse(TLVError)
        /// No report arrived within the max interval plus the device's retransmission time.
        case subscriptionLost(silentFor: Duration)
        /// The transport was shut down.
        case transportShutDown
        /// The caller's task was cancelled: it gave up waiting.
        case cancelled

        public var description: String {
            switch self {
            case .interaction(.status(let status, _)): "\(status)"
            case .interaction(let error): "\(error)"
            case .timedOut(let timeout): "timed out after \(timeout.spoken)"
            case .exchange(let error): "\(error)"
            case .unexpectedProtocol(let protocolID, let opcode):
                "the device answered with \(protocolID) opcode \(opcode)"
            case .unexpectedResponse(let expected, let received):
                "expected \(Self.describe(expected)), the device answered \(Self.describe(received))"
            case .malformedResponse(let error): "malformed response fields: \(error)"
            case .subscriptionLost(let silence): "subscription lost: no report for \(silence.spoken)"
            case .transportShutDown: "the transport was shut down"
            case .cancelled: "cancelled"
            }
        }

        private static func describe(_ command: UInt32?) -> String {
            command.map { "response command 0x" + String($0, radix: 16, uppercase: true) } ?? "a plain SUCCESS status"
        }
    }

    /// What was attempted, e.g. "invoke GeneralCommissioning.ArmFailSafe on endpoint 0".
    public let operation: String
    public let reason: Reason

    public init(operation: String, reason: Reason) {
        self.operation = operation
        self.reason = reason
    }

    /// The status the device sent, when the failure is one.
    public var status: InteractionModelStatus? {
        guard case .interaction(let error) = reason else { return nil }
        return error.status
    }

    /// The cluster-specific status that came with it (§8.10.3 ClusterStatus), when the cluster gave one.
    public var clusterStatus: UInt8? {
        guard case .interaction(.status(let status, _)) = reason else { return nil }
        return status.clusterStatus
    }

    public var description: String { "\(operation): \(reason)" }
}
