import HomeHub
import HomeRecords
import HubWire
import MatterPlatform

/// How the hub's errors become `HomeError`s: the code says what kind of failure it is, the message keeps the hub's words.
extension HomeError {
    package init(_ error: HubStoreError) {
        let code: Code =
            switch error {
            case .database(let database): Self.code(of: database)
            case .newerSchema, .wrongState, .commissioningInProgress, .noCommissioningSession, .nothingCommissioned:
                .failedPrecondition
            case .fabricExists, .nodeExists, .roomExists, .groupExists: .alreadyExists
            case .unknownNode, .unknownDevice, .unknownRoom, .unknownStructure, .unknownGroup: .notFound
            case .groupIDsExhausted: .resourceExhausted
            case .corrupt: .dataLoss
            case .changing: .aborted
            case .invalidName: .invalidArgument
            }
        self.init(code, error.description)
    }

    package init(_ error: StateDirectoryError) {
        let code: Code =
            switch error {
            case .emptyPath: .invalidArgument
            case .noDefault, .notADirectory: .failedPrecondition
            case .cannotCreate, .notWritable: .permissionDenied
            }
        self.init(code, error.description)
    }

    /// Any error from opening or using the hub. Errors the hub's layers define are mapped by kind; anything else is a bug.
    package init(opening error: any Error) {
        switch error {
        case let error as HomeError: self = error
        case let error as HubStoreError: self.init(error)
        case let error as StateDirectoryError: self.init(error)
        case let error as SQLiteError: self.init(Self.code(of: error), error.description)
        case let error as FabricAuthorityError:
            if case .store(let store) = error {
                self.init(store)
            } else {
                self.init(.dataLoss, "the hub's fabric: \(error)")
            }
        case let error as HubUnavailable: self.init(.unavailable, error.description)
        case is CancellationError: self.init(.cancelled, "cancelled")
        default: self.init(.internal, "\(error)")
        }
    }

    private static func code(of error: SQLiteError) -> Code {
        switch error {
        case .busy: .unavailable
        case .open: .unavailable
        case .statement: .internal
        }
    }
}
