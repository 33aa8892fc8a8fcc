// Matter Core §5.5: the commissioner's flow as a value type. It decides which step comes next, which are
// skipped, and what must be undone when a step fails; the Commissioner carries the steps out.
public struct CommissioningStateMachine: Sendable {
    public enum Action: Sendable, Equatable {
        /// Carry out this step within its timeout, then report back.
        case run(CommissioningStep)
        /// Every step succeeded.
        case finished
        /// A step failed: undo what `rollback` lists, then report `error`.
        case failed(CommissioningError, rollback: Rollback)
    }

    /// What a failed commissioning leaves to undo, depending on how far it got.
    public struct Rollback: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// AddNOC succeeded: the device holds our fabric; remove it (RemoveFabric) if a session still works,
        /// else the fail-safe's expiry removes it.
        public static let removeFabricFromDevice = Rollback(rawValue: 1 << 0)
        /// A node row was written for this commissioning: delete it.
        public static let forgetNode = Rollback(rawValue: 1 << 1)
    }

    public struct Options: Sendable, Equatable {
        /// Discovery is skipped when the caller gave the address.
        public var addressKnown: Bool
        /// The device is already on the IP network we reach it on, so there is nothing to configure.
        public var onIPNetwork: Bool
        /// The user accepted a device that fails attestation; it is recorded as untrusted.
        public var acceptUntrustedDevice: Bool

        public init(addressKnown: Bool, onIPNetwork: Bool = true, acceptUntrustedDevice: Bool = false) {
            self.addressKnown = addressKnown
            self.onIPNetwork = onIPNetwork
            self.acceptUntrustedDevice = acceptUntrustedDevice
        }
    }

    public private(set) var current: CommissioningStep?
    public private(set) var completed: [CommissioningStep] = []
    /// Why the device was let in despite failing attestation, when it was.
    public private(set) var attestationOverride: String?
    private let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// The steps this commissioning will take, in order.
    public var plan: [CommissioningStep] {
        CommissioningStep.allCases.filter { step in
            switch step {
            case .discovery: !options.addressKnown
            case .networkSetup: !options.onIPNetwork
            default: true
            }
        }
    }

    public mutating func start() -> Action {
        advance()
    }

    public mutating func succeeded(_ step: CommissioningStep) -> Action {
        guard step == current else { return fail(.outOfOrder(step, expected: current)) }
        completed.append(step)
        return advance()
    }

    /// A failed step. A device failing attestation goes on only when the user said so.
    public mutating func failed(_ step: CommissioningStep, _ failure: CommissioningFailure) -> Action {
        guard step == current else { return fail(.outOfOrder(step, expected: current)) }
        if step == .deviceAttestation, failure.kind == .untrustedDevice, options.acceptUntrustedDevice {
            attestationOverride = failure.reason
            completed.append(step)
            return advance()
        }
        return fail(.stepFailed(step, failure))
    }

    private mutating func advance() -> Action {
        let remaining = plan.drop { completed.contains($0) }
        guard let next = remaining.first else {
            current = nil
            return .finished
        }
        current = next
        return .run(next)
    }

    private mutating func fail(_ error: CommissioningError) -> Action {
        current = nil
        var rollback: Rollback = []
        // After CommissioningComplete the device is ours for good (§5.5): nothing is undone.
        guard !completed.contains(.commissioningComplete) else { return .failed(error, rollback: rollback) }
        if completed.contains(.addOperationalCertificate) { rollback.insert(.removeFabricFromDevice) }
        if completed.contains(.certificateSigningRequest) { rollback.insert(.forgetNode) }
        return .failed(error, rollback: rollback)
    }
}

public enum CommissioningError: Error, Sendable, Equatable, CustomStringConvertible {
    case stepFailed(CommissioningStep, CommissioningFailure)
    case outOfOrder(CommissioningStep, expected: CommissioningStep?)

    public var description: String {
        switch self {
        case .stepFailed(let step, let failure): "\(step) failed: \(failure)"
        case .outOfOrder(let step, let expected):
            "internal error: \(step) reported while \(expected.map(\.description) ?? "nothing") was running"
        }
    }
}
