import Foundation
import HomeRecords
import MatterDevice
import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@_spi(CrashTesting) @testable import HomeHub

/// The commissioning's network-setup phase (Matter Core §5.5 steps 10–11, §11.9): after AddNOC the device is given
/// Wi-Fi or Thread credentials over PASE and joins, then is found operationally. Our commissioner against the
/// virtual device's simulated radio, on virtual time over the simulated network.
@Suite(.timeLimit(.minutes(1))) struct NetworkSetupTests {
    static let home = SimulatedRadio.WiFiNetwork(ssid: "home", passphrase: "secret99")
    static let extendedPANID: [UInt8] = [0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0xCA, 0xFE]
    /// A Thread dataset: Channel (type 0), then Extended PAN ID (type 2).
    static let dataset: [UInt8] = [0x00, 0x03, 0x00, 0x00, 0x0F, 0x02, 0x08] + extendedPANID

    @Test(arguments: [
        (
            SimulatedRadio.wifi([home]),
            NetworkCredentials.wifi(ssid: Array("home".utf8), credentials: Array("secret99".utf8))
        ),
        (
            SimulatedRadio.thread(extendedPANIDs: [extendedPANID]),
            NetworkCredentials.thread(operationalDataset: dataset)
        ),
    ])
    func theDeviceIsGivenTheNetworkJoinsItAndIsCommissioned(
        radio: SimulatedRadio, credentials: NetworkCredentials
    )
        async throws
    {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub) = try await Self.start(in: directory, radio: radio)
            let steps = Mutex<[CommissioningStep]>([])
            let outcome = try await Self.commission(fixture, hub, network, credentials: credentials) { progress in
                if case .finished(let step, _) = progress { steps.withLock { $0.append(step) } }
            }
            let result = try outcome.get()
            #expect(try await hub.store.node(result.nodeID)?.state == .commissioned)
            let order = steps.withLock { $0 }
            #expect(
                Array(order.drop { $0 != .addOperationalCertificate }.prefix(3)) == [
                    .addOperationalCertificate, .networkSetup, .operationalDiscovery,
                ])
            let joined = await fixture.device.networks
            #expect(joined.map(\.connected) == [true])
            #expect(fixture.lines.all.contains { $0.hasPrefix("[network] joined ") })
            // CommissioningComplete kept it: the fail-safe's time passing changes nothing.
            try await CrashPointTests.letTheFailSafeExpire(network, fixture)
            #expect(await fixture.device.networks.map(\.connected) == [true])
            await fixture.device.shutdown()
        }
    }

    @Test func aWrongPassphraseFailsNetworkSetupAndTheDeviceKeepsNothing() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub) = try await Self.start(in: directory, radio: .wifi([Self.home]))
            let wrong = NetworkCredentials.wifi(ssid: Array("home".utf8), credentials: Array("not-the-one".utf8))
            let outcome = try await Self.commission(fixture, hub, network, credentials: wrong)
            guard case .failure(.stepFailed(.networkSetup, let failure)) = outcome else {
                Issue.record("expected network setup to fail: \(outcome)")
                return
            }
            #expect(failure.reason == "the device could not join the Wi-Fi network \"home\": AuthFailure (7)")
            // Undone: RemoveFabric took our NOC back at once and the store forgot the node; the network the device
            // was given goes with its fail-safe (RemoveFabric ended the PASE session the disarm would have used).
            #expect(try await hub.store.nodes().isEmpty)
            #expect(await fixture.device.fabrics.isEmpty)
            try await CrashPointTests.letTheFailSafeExpire(network, fixture)
            #expect(await fixture.device.networks.isEmpty)
            #expect(await fixture.device.isCommissioningWindowOpen)
            await fixture.device.shutdown()
        }
    }

    @Test func aDeviceWithNoRadioToConfigureFailsNetworkSetupSayingSo() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub) = try await Self.start(in: directory, radio: nil)
            let credentials = NetworkCredentials.wifi(ssid: Array("home".utf8), credentials: Array("secret99".utf8))
            let outcome = try await Self.commission(fixture, hub, network, credentials: credentials)
            guard case .failure(.stepFailed(.networkSetup, let failure)) = outcome else {
                Issue.record("expected network setup to fail: \(outcome)")
                return
            }
            #expect(failure.reason.contains("UNSUPPORTED_CLUSTER"), "\(failure)")
            #expect(await fixture.device.fabrics.isEmpty)
            await fixture.device.shutdown()
        }
    }

    /// The commissioner dies right after network setup: the device's fail-safe takes back both the NOC and the
    /// network, and it is commissionable again.
    @Test func anInterruptedNetworkSetupIsUndoneByTheFailSafe() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub) = try await Self.start(in: directory, radio: .wifi([Self.home]))
            let transport = try fixture.controllerTransport()
            let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: transport)
            await commissioner.endAbruptly(after: .networkSetup)
            var request = try fixture.request()
            request.network = .wifi(ssid: Array("home".utf8), credentials: Array("secret99".utf8))
            let ended = await CrashPointTests.failure(of: commissioner, request, on: network)
            guard case .stepFailed(.networkSetup, _)? = ended?.value else {
                Issue.record("expected the commissioning to end after network setup: \(String(describing: ended))")
                return
            }
            await transport.shutdown()
            #expect(await fixture.device.networks.map(\.connected) == [true], "joined, under the fail-safe")
            try await CrashPointTests.letTheFailSafeExpire(network, fixture)
            #expect(await fixture.device.fabrics.isEmpty)
            #expect(await fixture.device.networks.isEmpty)
            // The console line follows the state file's write, which the expiry starts.
            let reverted = "[network] fail-safe expired: the network settings are back as they were"
            #expect(await eventually(within: .seconds(10)) { fixture.lines.all.contains(reverted) })
            #expect(await fixture.device.isCommissioningWindowOpen)
            await fixture.device.shutdown()
        }
    }

    private static func start(
        in directory: String, radio: SimulatedRadio?
    ) async throws -> (ClockedNetwork, LoopbackFixture, Hub) {
        let network = ClockedNetwork(clock: ManualClock(), seed: 17)
        let fixture = try await LoopbackFixture.start(in: directory, network: network, radio: radio)
        return (network, fixture, try await Hub(statePath: fixture.hubPath))
    }

    private static func commission(
        _ fixture: LoopbackFixture, _ hub: Hub, _ network: ClockedNetwork, credentials: NetworkCredentials,
        progress: @escaping @Sendable (CommissioningProgress) -> Void = { _ in }
    ) async throws -> Result<CommissioningResult, CommissioningError> {
        let transport = try fixture.controllerTransport()
        defer { Task { await transport.shutdown() } }
        let commissioner = Commissioner(
            authority: hub.authority, store: hub.store, transport: transport, progress: progress)
        var asked = try fixture.request()
        asked.network = credentials
        let request = asked
        let outcome = await drive(network.clock, step: .milliseconds(5)) {
            () -> Result<CommissioningResult, CommissioningError> in
            do throws(CommissioningError) {
                return .success(try await commissioner.commission(request))
            } catch {
                return .failure(error)
            }
        }
        return try #require(outcome?.value)
    }
}
