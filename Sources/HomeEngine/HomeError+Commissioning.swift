import HomeHub
import HomeRecords
import HubWire
import MatterPlatform

/// How a failed add-device step becomes a `HomeError`: the code says what went wrong, the message names the step and the reason.
extension HomeError {
    package init(commissioning error: any Error) {
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
        case .outOfOrder: .internal
        case .stepFailed(_, let failure):
            switch failure.kind {
            case .noAnswer: .deadlineExceeded
            case .deviceNotFound: .notFound
            case .wrongPasscode: .unauthenticated
            case .deviceBusy: .unavailable
            case .untrustedDevice: .permissionDenied
            case .fabricTableFull: .resourceExhausted
            case .alreadyCommissioned: .alreadyExists
            case .refused: .aborted
            case .unsupported: .unimplemented
            case .hubFailure: .internal
            }
        }
    }
}
