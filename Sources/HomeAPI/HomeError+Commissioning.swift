import HomeHub
import MatterPlatform

/// How a failed add-device step becomes a `HomeError`: the code says what went wrong, the message names the step and the reason.
extension HomeError {
    init(commissioning error: any Error) {
        switch error {
        case let error as HomeError:
            self = error
        case let error as CommissioningError:
            self.init(Self.code(of: error), "adding the device: \(error)")
        case let error as HubStoreError:
            self.init(error)
        case let error as SocketError:
            self.init(.unavailable, "adding the device: the Matter transport: \(error)")
        case is CancellationError:
            self.init(.cancelled, "adding the device was cancelled")
        default:
            self.init(.internal, "adding the device: \(error)")
        }
    }

    private static func code(of error: CommissioningError) -> Code {
        switch error {
        case .timedOut: return .deadlineExceeded
        case .outOfOrder: return .internal
        case .stepFailed(let step, let reason):
            if reason.hasPrefix("no answer within") { return .deadlineExceeded }
            switch step {
            case .discovery: return .notFound
            case .passcodeSession: return reason.contains("wrong passcode") ? .unauthenticated : .unavailable
            case .deviceAttestation: return .permissionDenied
            case .addOperationalCertificate:
                if reason.contains("TableFull") { return .resourceExhausted }
                if reason.contains("FabricConflict") { return .alreadyExists }
                return .aborted
            default: return .aborted
            }
        }
    }
}
