import HomeRecords
import MatterInteraction
import MatterNode
import MatterSecureChannel

/// Why a commissioning step failed: a kind a caller can act on (the Home API maps it to a `HomeError` code), and
/// the reason in words.
public struct CommissioningFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The device did not answer in time.
        case noAnswer
        /// No device matching the onboarding payload answered on the network.
        case deviceNotFound
        /// PASE failed because the passcode does not match the device's.
        case wrongPasscode
        /// The device refused PASE as BUSY: a commissioning another attempt started holds it until that attempt's
        /// fail-safe expires (Matter Core §4.14.1.2 allows one PASE session at a time).
        case deviceBusy
        /// Device attestation refused the device (untrusted PAA, bad certification declaration, …).
        case untrustedDevice
        /// The device holds as many fabrics as it supports (`TableFull`, Matter Core §11.18.4.8).
        case fabricTableFull
        /// The device is already on this hub's fabric.
        case alreadyCommissioned
        /// The device answered, but refused or could not do what the step asked.
        case refused
        /// The step needs something the hub does not do yet.
        case unsupported
        /// The hub itself failed (its store, its keys, its sockets).
        case hubFailure
    }

    public let kind: Kind
    public let reason: String
    /// The node of this hub's fabric the device already is, when the failure is `alreadyCommissioned` and the hub
    /// knows which.
    public let node: UInt64?

    public init(_ kind: Kind, _ reason: String, node: UInt64? = nil) {
        self.kind = kind
        self.reason = reason
        self.node = node
    }

    public var description: String { reason }
}

extension CommissioningFailure {
    /// The failure an error thrown while carrying out a step stands for.
    init(_ error: any Error) {
        switch error {
        case let failure as CommissioningFailure:
            self = failure
        case let error as SessionEstablishmentError where Self.kind(of: error) == .deviceBusy:
            self.init(
                .deviceBusy,
                "\(error.reason): the device is in a commissioning another attempt started, which frees it when that "
                    + "attempt's fail-safe expires (at most \(HubConstants.failSafeSeconds) s for one this hub started), "
                    + "or its commissioning window is closed (it is already commissioned: open a window from the "
                    + "controller that has it, with its share or pairing-mode option)")
        case let error as SessionEstablishmentError:
            self.init(Self.kind(of: error), error.reason)
        case let error as InteractionClientError:
            switch error.reason {
            case .timedOut, .exchange: self.init(.noAnswer, "\(error)")
            case .transportShutDown, .cancelled: self.init(.hubFailure, "\(error)")
            default: self.init(.refused, "\(error)")
            }
        case let error as HubStoreError:
            self.init(.hubFailure, "the hub's store: \(error)")
        case let error as FabricAuthorityError:
            self.init(.hubFailure, "the hub's fabric: \(error)")
        default:
            self.init(.refused, "\(error)")
        }
    }

    private static func kind(of error: SessionEstablishmentError) -> Kind {
        switch error {
        case .rejected(_, .wrongPasscode): .wrongPasscode
        case .rejected(_, .peerRejected(let report))
        where report.isSecureChannel && report.protocolCode == SecureChannelStatusCode.busy.rawValue:
            .deviceBusy
        case .transport: .noAnswer
        case .rejected, .unexpectedProtocol: .refused
        }
    }
}
