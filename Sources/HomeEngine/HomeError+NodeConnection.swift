import HomeHub
import HomeRecords
import HubWire
import MatterInteraction
import MatterNode

/// How a live connection's errors become `HomeError`s.
extension HomeError {
    package init(_ error: NodeConnectionError, command: String) {
        let code: Code =
            switch error {
            case .unreachable, .stopped: .unavailable
            case .missingAttribute: .failedPrecondition
            case .malformedAttribute: .dataLoss
            case .interaction(let interaction): Self.code(of: interaction)
            }
        self.init(code, "\(command): \(error)")
    }

    /// A status is the device refusing; anything else is the exchange failing.
    private static func code(of error: InteractionClientError) -> Code {
        if let status = error.status {
            return switch status {
            case .unsupportedAccess, .accessRestricted: .permissionDenied
            case .unsupportedCommand, .unsupportedCluster, .unsupportedEndpoint: .unimplemented
            case .constraintError, .invalidCommand, .invalidDataType: .invalidArgument
            case .resourceExhausted: .resourceExhausted
            case .busy: .unavailable
            case .timeout: .deadlineExceeded
            case .notFound: .notFound
            default: .failedPrecondition
            }
        }
        if case .timedOut = error.reason { return .deadlineExceeded }
        return .unavailable
    }
}
