import Testing

@testable import HomeHub

@Suite struct CommissioningStateMachineTests {
    /// Drives the machine, answering every step with success, and returns the steps it asked for.
    static func runAll(_ machine: inout CommissioningStateMachine) -> [CommissioningStep] {
        var steps: [CommissioningStep] = []
        var action = machine.start()
        while case .run(let step) = action {
            steps.append(step)
            action = machine.succeeded(step)
        }
        #expect(action == .finished)
        return steps
    }

    @Test func runsTheSpecOrderAndSkipsNetworkSetupOnIP() {
        var machine = CommissioningStateMachine(options: .init(addressKnown: false))
        #expect(
            Self.runAll(&machine) == [
                .discovery, .passcodeSession, .armFailSafe, .regulatoryConfig, .deviceAttestation,
                .certificateSigningRequest,
                .addTrustedRoot, .addOperationalCertificate, .operationalDiscovery, .operationalSession,
                .commissioningComplete, .interview,
            ])
    }

    @Test func skipsDiscoveryWhenTheAddressIsGivenAndConfiguresTheNetworkWhenNeeded() {
        var machine = CommissioningStateMachine(options: .init(addressKnown: true, onIPNetwork: false))
        let steps = Self.runAll(&machine)
        #expect(steps.first == .passcodeSession)
        #expect(steps.contains(.networkSetup))
        #expect(steps.firstIndex(of: .networkSetup)! > steps.firstIndex(of: .addOperationalCertificate)!)
    }

    @Test func aFailureNamesItsStepAndRollsBackWhatWasDone() {
        var machine = CommissioningStateMachine(options: .init(addressKnown: true))
        var action = machine.start()
        while case .run(let step) = action, step != .operationalSession {
            action = machine.succeeded(step)
        }
        action = machine.failed(.operationalSession, CommissioningFailure(.noAnswer, "no answer"))
        #expect(
            action
                == .failed(
                    .stepFailed(.operationalSession, CommissioningFailure(.noAnswer, "no answer")),
                    rollback: [.removeFabricFromDevice, .forgetNode]))
        #expect(
            CommissioningError.stepFailed(.operationalSession, CommissioningFailure(.noAnswer, "no answer")).description
                == "CASE session failed: no answer")
    }

    @Test func nothingIsUndoneOnceCommissioningCompleted() {
        var machine = CommissioningStateMachine(options: .init(addressKnown: true))
        var action = machine.start()
        while case .run(let step) = action, step != .interview { action = machine.succeeded(step) }
        #expect(
            machine.failed(.interview, CommissioningFailure(.noAnswer, "timeout"))
                == .failed(.stepFailed(.interview, CommissioningFailure(.noAnswer, "timeout")), rollback: []))
    }

    @Test func anEarlyFailureHasNothingToUndo() {
        var machine = CommissioningStateMachine(options: .init(addressKnown: true))
        _ = machine.start()
        #expect(
            machine.failed(.passcodeSession, CommissioningFailure(.wrongPasscode, "wrong passcode"))
                == .failed(
                    .stepFailed(.passcodeSession, CommissioningFailure(.wrongPasscode, "wrong passcode")), rollback: [])
        )
    }

    @Test func attestationFailureStopsUnlessTheUserAcceptsTheDevice() {
        var strict = CommissioningStateMachine(options: .init(addressKnown: true))
        var action = strict.start()
        while case .run(let step) = action, step != .deviceAttestation { action = strict.succeeded(step) }
        let untrusted = CommissioningFailure(.untrustedDevice, "PAA not trusted")
        #expect(
            strict.failed(.deviceAttestation, untrusted)
                == .failed(.stepFailed(.deviceAttestation, untrusted), rollback: []))

        var lenient = CommissioningStateMachine(options: .init(addressKnown: true, acceptUntrustedDevice: true))
        action = lenient.start()
        while case .run(let step) = action, step != .deviceAttestation { action = lenient.succeeded(step) }
        #expect(lenient.failed(.deviceAttestation, untrusted) == .run(.certificateSigningRequest))
        #expect(lenient.attestationOverride == "PAA not trusted")
    }

    @Test func acceptingUntrustedDevicesDoesNotAcceptADeviceThatNeverAnswered() {
        var lenient = CommissioningStateMachine(options: .init(addressKnown: true, acceptUntrustedDevice: true))
        var action = lenient.start()
        while case .run(let step) = action, step != .deviceAttestation { action = lenient.succeeded(step) }
        let silent = CommissioningFailure(.noAnswer, "no answer within 30 s")
        #expect(
            lenient.failed(.deviceAttestation, silent) == .failed(.stepFailed(.deviceAttestation, silent), rollback: [])
        )
        #expect(lenient.attestationOverride == nil)
    }

    @Test func refusesReportsForAStepThatIsNotRunning() {
        var machine = CommissioningStateMachine(options: .init(addressKnown: true))
        _ = machine.start()
        guard
            case .failed(.outOfOrder(.addTrustedRoot, expected: .passcodeSession), _) = machine.succeeded(
                .addTrustedRoot)
        else {
            Issue.record("accepted a step out of order")
            return
        }
    }
}
