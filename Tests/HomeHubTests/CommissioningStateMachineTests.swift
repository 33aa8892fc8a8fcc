import HomeRecords
import MatterBTP
import MatterDiscovery
import MatterPlatform
import Testing

@testable import HomeHub

/// Stand-ins for what the steps produce: the machine never looks inside them.
private enum Stand: CommissioningArtifacts {
    typealias Session = String
    typealias Attestation = String
    typealias SigningRequest = String
    typealias Fallbacks = Int
}

private typealias Machine = CommissioningStateMachine<Stand>

@Suite struct CommissioningStateMachineTests {
    private static let commissioningAddress = SocketAddress.ipv4(IPv4Address(0x0A00_0005), port: 5540)
    private static let operationalAddress = SocketAddress.ipv4(IPv4Address(0x0A00_0006), port: 5540)
    private static let wifi = NetworkCredentials.wifi(ssid: Array("home".utf8), credentials: Array("secret99".utf8))
    private static let description = NodeDescription(
        vendorID: 0xFFF1, vendorName: "Acme", productID: 0x8000, productName: "Lamp", endpoints: [])

    private static let peripheral = BluetoothPeripheral(
        address: "02:00:00:00:0F:00",
        advertisement: MatterBLEAdvertisement(discriminator: 3840, vendorID: 0xFFF1, productID: 0x8000))

    /// What a step that succeeds reports: each the result its step gives (discovery over the link asked for).
    private static func success(_ action: Machine.Action, link: CommissioningLink = .ip) -> Machine.StepResult? {
        switch action {
        case .discover where link == .bluetoothLE: .foundOverBluetooth(peripheral)
        case .discover: .discovered(commissioningAddress, fallbacks: 2)
        case .connectBluetooth: .bluetoothConnected(BluetoothConnection(id: 9))
        case .establishPASE(let address, _): .paseEstablished("pase", at: address)
        case .armFailSafe, .setRegulatoryConfig, .addTrustedRoot, .setUpNetwork, .completeCommissioning: .done
        case .attest: .attested("attestation")
        case .requestSigningRequest: .signingRequestVerified("csr")
        case .addNOC: .nocAdded(nodeID: 0x42, fabricIndex: 3)
        case .discoverOperational: .operationalFound(operationalAddress)
        case .establishCASE(_, let address): .caseEstablished("case", at: address)
        case .interview: .interviewed(description)
        case .finish, .fail: nil
        }
    }

    /// Drives the machine, every step succeeding until `failing` (which fails with `failure`); returns the steps it
    /// asked for and the action it ended on.
    private static func drive(
        _ machine: inout Machine, link: CommissioningLink = .ip, failing: CommissioningStep? = nil,
        with failure: CommissioningFailure = CommissioningFailure(.noAnswer, "no answer")
    ) -> (steps: [CommissioningStep], end: Machine.Action) {
        var steps: [CommissioningStep] = []
        var action = machine.start()
        while let step = action.step, let result = success(action, link: link) {
            steps.append(step)
            action = step == failing ? machine.failed(step, failure) : machine.succeeded(result)
        }
        return (steps, action)
    }

    @Test func runsTheSpecOrderAndSkipsNetworkSetupOnIP() throws {
        var machine = Machine(options: .init())
        let (steps, end) = Self.drive(&machine)
        #expect(
            steps == [
                .discovery, .passcodeSession, .armFailSafe, .regulatoryConfig, .deviceAttestation,
                .certificateSigningRequest, .addTrustedRoot, .addOperationalCertificate, .operationalDiscovery,
                .operationalSession, .commissioningComplete, .interview,
            ])
        #expect(steps == machine.plan)
        guard case .finish(let commissioned) = end else { throw Unexpected(end) }
        // Each phase handed on what it established: the end holds every one of them.
        #expect(commissioned.operational.session == "case")
        #expect(commissioned.operational.address == Self.operationalAddress)
        #expect(commissioned.operational.enrolled.nodeID == 0x42)
        #expect(commissioned.operational.enrolled.fabricIndex == 3)
        #expect(commissioned.operational.enrolled.secured.pase == "pase")
        #expect(commissioned.operational.enrolled.secured.address == .udp(Self.commissioningAddress))
        #expect(commissioned.operational.enrolled.attested.record.trusted)
        #expect(commissioned.description == Self.description)
    }

    @Test func aGivenAddressSkipsDiscoveryAndNetworkCredentialsAreGivenAfterTheNOC() throws {
        var machine = Machine(options: .init(address: Self.commissioningAddress, networks: [Self.wifi]))
        var action = machine.start()
        guard case .establishPASE(.udp(Self.commissioningAddress), fallbacks: nil) = action else {
            throw Unexpected(action)
        }
        while let result = Self.success(action), action.step != .networkSetup { action = machine.succeeded(result) }
        // Network setup runs over PASE, with the credentials asked for, once the device holds our NOC.
        guard case .setUpNetwork(let enrolled, let networks) = action else { throw Unexpected(action) }
        #expect(networks == [Self.wifi])
        #expect(enrolled.secured.pase == "pase")
        #expect(enrolled.nodeID == 0x42)
        #expect(machine.nodeID == 0x42)
        action = machine.succeeded(.done)
        #expect(action.step == .operationalDiscovery)
        #expect(machine.plan.firstIndex(of: .networkSetup) == machine.plan.firstIndex(of: .operationalDiscovery)! - 1)
        #expect(!machine.plan.contains(.discovery))
    }

    @Test func aDeviceOverBluetoothNeedsNetworkCredentials() throws {
        var without = Machine(options: .init(link: .bluetoothLE))
        let refused = without.start()
        guard case .fail(.stepFailed(.networkSetup, let failure), let undo) = refused else { throw Unexpected(refused) }
        #expect(failure.reason == "a device reached over Bluetooth LE must be given Wi-Fi or Thread credentials")
        #expect(undo.secured == nil && undo.enrolled == nil)

        let thread = NetworkCredentials.thread(operationalDataset: [0x02, 0x08, 1, 2, 3, 4, 5, 6, 7, 8])
        var with = Machine(options: .init(link: .bluetoothLE, networks: [thread]))
        let (steps, end) = Self.drive(&with, link: .bluetoothLE)
        // Found over BLE, BTP, then PASE over the BLE connection; network setup before finding it on IP.
        #expect(
            steps == [
                .discovery, .bluetoothSession, .passcodeSession, .armFailSafe, .regulatoryConfig, .deviceAttestation,
                .certificateSigningRequest, .addTrustedRoot, .addOperationalCertificate, .networkSetup,
                .operationalDiscovery, .operationalSession, .commissioningComplete, .interview,
            ])
        #expect(steps == with.plan)
        guard case .finish(let commissioned) = end else { throw Unexpected(end) }
        #expect(commissioned.operational.enrolled.secured.address == .bluetooth(BluetoothConnection(id: 9)))
        #expect(commissioned.operational.enrolled.secured.udpAddress == nil)
        #expect(commissioned.operational.address == Self.operationalAddress)
    }

    @Test func aFailureNamesItsStepAndUndoesWhatWasDone() throws {
        var machine = Machine(options: .init(address: Self.commissioningAddress))
        let (_, end) = Self.drive(&machine, failing: .operationalSession)
        guard case .fail(let error, let undo) = end else { throw Unexpected(end) }
        #expect(error == .stepFailed(.operationalSession, CommissioningFailure(.noAnswer, "no answer")))
        #expect(error.description == "CASE session failed: no answer")
        // The device holds our fabric: RemoveFabric over PASE, the fail-safe disarmed, the row forgotten.
        #expect(undo.secured?.pase == "pase")
        #expect(undo.enrolled?.nodeID == 0x42)
        #expect(undo.enrolled?.fabricIndex == 3)
        #expect(undo.operational == nil)
    }

    @Test func aRefusedCommissioningCompleteClosesTheCommissionersCASESessionToo() throws {
        var machine = Machine(options: .init(address: Self.commissioningAddress))
        let (_, end) = Self.drive(&machine, failing: .commissioningComplete)
        guard case .fail(_, let undo) = end else { throw Unexpected(end) }
        #expect(undo.operational?.session == "case")
        #expect(undo.enrolled?.nodeID == 0x42)
    }

    @Test func anInterviewFailureStillFinishesTheCommissionedDevice() throws {
        var machine = Machine(options: .init(address: Self.commissioningAddress))
        let timeout = CommissioningFailure(.noAnswer, "timeout")
        let (_, end) = Self.drive(&machine, failing: .interview, with: timeout)
        guard case .finish(let commissioned) = end else { throw Unexpected(end) }
        #expect(commissioned.description == nil)
        #expect(commissioned.interviewFailure == timeout)
    }

    @Test func anEarlyFailureHasNothingToUndo() throws {
        var machine = Machine(options: .init(address: Self.commissioningAddress))
        let wrong = CommissioningFailure(.wrongPasscode, "wrong passcode")
        let (_, end) = Self.drive(&machine, failing: .passcodeSession, with: wrong)
        guard case .fail(.stepFailed(.passcodeSession, wrong), let undo) = end else { throw Unexpected(end) }
        #expect(undo.secured == nil && undo.enrolled == nil && undo.operational == nil)
    }

    @Test func attestationFailureStopsUnlessTheUserAcceptsTheDevice() throws {
        let untrusted = CommissioningFailure(.untrustedDevice, "PAA not trusted")
        var strict = Machine(options: .init(address: Self.commissioningAddress))
        var action = strict.start()
        while let result = Self.success(action), action.step != .deviceAttestation { action = strict.succeeded(result) }
        let refused = strict.attestationFailed("what attestation learned", untrusted)
        guard case .fail(.stepFailed(.deviceAttestation, untrusted), let undo) = refused else {
            throw Unexpected(refused)
        }
        // Under the fail-safe already: it is disarmed, nothing else.
        #expect(undo.secured?.pase == "pase" && undo.enrolled == nil)

        var lenient = Machine(options: .init(address: Self.commissioningAddress, acceptUntrustedDevice: true))
        action = lenient.start()
        while let result = Self.success(action), action.step != .deviceAttestation {
            action = lenient.succeeded(result)
        }
        let accepted = lenient.attestationFailed("what attestation learned", untrusted)
        guard case .requestSigningRequest(let attested) = accepted else { throw Unexpected(accepted) }
        #expect(attested.attestation == "what attestation learned")
        #expect(
            attested.record
                == .init(verdict: "accepted by the user although attestation failed: PAA not trusted", trusted: false))
    }

    @Test func acceptingUntrustedDevicesDoesNotAcceptADeviceThatNeverAnswered() throws {
        var lenient = Machine(options: .init(address: Self.commissioningAddress, acceptUntrustedDevice: true))
        let silent = CommissioningFailure(.noAnswer, "no answer within 30 s")
        let (_, end) = Self.drive(&lenient, failing: .deviceAttestation, with: silent)
        guard case .fail(.stepFailed(.deviceAttestation, silent), _) = end else { throw Unexpected(end) }
    }

    @Test func refusesResultsAStepCannotGive() throws {
        var machine = Machine(options: .init(address: Self.commissioningAddress))
        _ = machine.start()
        let action = machine.succeeded(.nocAdded(nodeID: 1, fabricIndex: 1))
        guard case .fail(.outOfOrder(nil, expected: .passcodeSession), _) = action else { throw Unexpected(action) }
        let late = machine.failed(.armFailSafe, CommissioningFailure(.noAnswer, "late"))
        guard case .fail(.outOfOrder(.armFailSafe, expected: nil), _) = late else { throw Unexpected(late) }
    }
}

private struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ action: Machine.Action) { description = "unexpected action \(action)" }
}
