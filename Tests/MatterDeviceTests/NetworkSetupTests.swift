import BLEProxy
import Foundation
import HomeRecords
import MatterBTP
import MatterDataModel
import MatterInteraction
import MatterOnboarding
import MatterPlatform
import MatterTLV
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@_spi(CrashTesting) @testable import HomeHub
@testable import MatterDevice

/// The commissioning's network-setup phase (Matter Core §5.5 steps 10–11, §11.9): after AddNOC the device is given
/// Wi-Fi or Thread credentials over PASE and joins, then is found operationally. Our commissioner against the
/// virtual device's simulated radio, on virtual time over the simulated network.
@Suite(.timeLimit(.minutes(1))) struct NetworkSetupTests {
    static let home = SimulatedRadio.WiFiNetwork(ssid: "home", passphrase: "secret99")
    /// The credentials that join `home`.
    static let homeWiFi = NetworkCredentials.wifi(ssid: Array("home".utf8), credentials: Array("secret99".utf8))
    static let extendedPANID: [UInt8] = [0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0xCA, 0xFE]
    /// A Thread dataset: Channel (type 0), then Extended PAN ID (type 2).
    static let dataset: [UInt8] = [0x00, 0x03, 0x00, 0x00, 0x0F, 0x02, 0x08] + extendedPANID

    @Test(arguments: [
        (
            SimulatedRadio.wifi([home]),
            homeWiFi
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
            // Its network diagnostics describe the network it joined.
            switch radio {
            case .wifi:
                #expect(
                    try await Self.diagnostic(WiFi.Attributes.bssid, of: fixture)
                        == .bytes(SimulatedRadio.bssid(ofSSID: Array("home".utf8))))
                #expect(try await Self.diagnostic(WiFi.Attributes.securityType, of: fixture) == .unsigned(4), "WPA2")
            case .thread:
                #expect(
                    try await Self.diagnostic(Thread.Attributes.extendedPanId, of: fixture)
                        == .unsigned(0xDEAD_00BE_EF00_CAFE))
                #expect(try await Self.diagnostic(Thread.Attributes.channel, of: fixture) == .unsigned(15))
                #expect(try await Self.diagnostic(Thread.Attributes.routingRole, of: fixture) == .unsigned(5), "router")
                guard
                    case .array(let neighbors) = try await Self.diagnostic(Thread.Attributes.neighborTable, of: fixture)
                else {
                    Issue.record("no neighbour table")
                    return
                }
                #expect(neighbors.count == 2)
            }
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
            let credentials = Self.homeWiFi
            let outcome = try await Self.commission(fixture, hub, network, credentials: credentials)
            guard case .failure(.stepFailed(.networkSetup, let failure)) = outcome else {
                Issue.record("expected network setup to fail: \(outcome)")
                return
            }
            #expect(failure.reason == "the device has no Network Commissioning cluster on endpoint 0")
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
            request.networks = [.wifi(ssid: Array("home".utf8), credentials: Array("secret99".utf8))]
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
            // The diagnostics heard of it from Network Commissioning's revert: on no network.
            #expect(try await Self.diagnostic(WiFi.Attributes.bssid, of: fixture) == .null)
            // The console line follows the state file's write, which the expiry starts.
            let reverted = "[network] fail-safe expired: the network settings are back as they were"
            #expect(await eventually(within: .seconds(10)) { fixture.lines.all.contains(reverted) })
            #expect(await fixture.device.isCommissioningWindowOpen)
            await fixture.device.shutdown()
        }
    }

    /// A device fresh from its box, reachable only over Bluetooth LE through a BLE proxy: found by its discriminator
    /// in the advertisement, PASE over BTP, Wi-Fi chosen for its interface among the networks the hub holds, found on IP
    /// once it joined (not before), CASE there; the BLE connection let go at the end.
    @Test func aDeviceFreshFromItsBoxIsCommissionedOverTheBLEProxyAndFoundOnIPOnceItJoined() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub, central, proxy) = try await Self.freshFromItsBox(
                in: directory, radio: .wifi([Self.home]))
            let device = fixture.device
            #expect(await device.node.onIP == false, "fresh from its box, it is on no IP network")
            #expect(device.setupPayload.discoveryCapabilities == .ble)
            let thread = NetworkCredentials.thread(operationalDataset: Self.dataset)
            let wifi = Self.homeWiFi
            let steps = Mutex<[CommissioningStep]>([])
            let lookedUpBeforeJoining = Mutex(false)
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [thread, wifi], bluetooth: central,
                operationalDiscovery: { _, _ in
                    // The device is on IP only once it joined the network it was given.
                    guard await device.networks.contains(where: \.connected) else {
                        lookedUpBeforeJoining.withLock { $0 = true }
                        return []
                    }
                    return [fixture.address]
                }
            ) { progress in
                if case .finished(let step, _) = progress { steps.withLock { $0.append(step) } }
            }
            let result = try outcome.get()
            #expect(try await hub.store.node(result.nodeID)?.state == .commissioned)
            #expect(
                steps.withLock { $0 } == [
                    .discovery, .bluetoothSession, .passcodeSession, .armFailSafe, .regulatoryConfig,
                    .deviceAttestation, .certificateSigningRequest, .addTrustedRoot, .addOperationalCertificate,
                    .networkSetup, .operationalDiscovery, .operationalSession, .commissioningComplete, .interview,
                ])
            #expect(!lookedUpBeforeJoining.withLock { $0 })
            #expect(await device.networks.map(\.connected) == [true])
            #expect(await device.node.onIP)
            #expect(fixture.lines.all.contains { $0.hasPrefix("[network] joined Wi-Fi \"home\"") })
            // PASE and the commissioning clusters went over BTP in binary frames, and the hub let the device go.
            #expect(
                Array(proxy.commands.prefix(6)) == [
                    "startScan", "stopScan", "connect", "discoverServices", "discoverCharacteristics",
                    "writeAndSubscribe",
                ])
            #expect(proxy.binaryFrames.toPeripheral > 10 && proxy.binaryFrames.toCentral > 10)
            #expect(await eventually(within: .seconds(5)) { proxy.commands.last == "disconnect" })
            #expect(await eventually(within: .seconds(5)) { await proxy.peripheral.isConnected == false })
            await device.shutdown()
        }
    }

    /// Over BLE with the wrong passphrase: the device's own status names the failure, nothing is stored, and once its
    /// fail-safe expires it advertises again.
    @Test func aWrongPassphraseOverBLEFailsNamingTheStatusAndTheDeviceAdvertisesAgain() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub, central, proxy) = try await Self.freshFromItsBox(
                in: directory, radio: .wifi([Self.home]))
            let device = fixture.device
            let wrong = NetworkCredentials.wifi(ssid: Array("home".utf8), credentials: Array("not-the-one".utf8))
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [wrong], bluetooth: central, operationalDiscovery: { _, _ in [] })
            guard case .failure(.stepFailed(.networkSetup, let failure)) = outcome else {
                Issue.record("expected network setup to fail: \(outcome)")
                return
            }
            #expect(failure.reason == "the device could not join the Wi-Fi network \"home\": AuthFailure (7)")
            #expect(try await hub.store.nodes().isEmpty)
            #expect(await eventually(within: .seconds(5)) { await proxy.peripheral.isConnected == false })
            try await CrashPointTests.letTheFailSafeExpire(network, fixture)
            #expect(await device.networks.isEmpty)
            #expect(await device.node.onIP == false, "it never joined: still off IP")
            #expect(await device.bluetoothAdvertisement != nil)
            // Found over BLE again by the next attempt.
            let again = await drive(network.clock, step: .milliseconds(5)) {
                try? await central.find(
                    matching: { $0.matches(longDiscriminator: LoopbackFixture.discriminator) }, timeout: .seconds(5))
            }
            #expect(again?.value?.address == "02:00:00:00:0F:00")
            await device.shutdown()
        }
    }

    /// The proxy carrying the device goes away right after PASE: the next step fails naming the lost link, and
    /// nothing is stored.
    @Test func aProxyThatDisconnectsMidCommissioningEndsItNamingTheLostLink() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub, central, proxy) = try await Self.freshFromItsBox(
                in: directory, radio: .wifi([Self.home]))
            let device = fixture.device
            let wifi = Self.homeWiFi
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [wifi], bluetooth: central, operationalDiscovery: { _, _ in [] }
            ) { progress in
                if case .finished(.passcodeSession, _) = progress {
                    let id = proxy.id
                    Task { await central.closed(id) }
                }
            }
            guard case .failure(.stepFailed(let step, let failure)) = outcome else {
                Issue.record("expected a failure: \(outcome)")
                return
            }
            #expect(step > .passcodeSession && step <= .networkSetup)
            #expect(
                failure.reason
                    == "the Bluetooth LE connection to the device ended: the Bluetooth LE link was lost: the BLE proxy carrying it disconnected"
            )
            #expect(try await hub.store.nodes().isEmpty)
            await device.shutdown()
        }
    }

    @Test func aWrongPasscodeOverBLEFailsPASEAndTheDeviceAdvertisesOn() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub, central, proxy) = try await Self.freshFromItsBox(
                in: directory, radio: .wifi([Self.home]))
            let device = fixture.device
            var payload = device.setupPayload
            payload.passcode = 20_202_022
            let wifi = Self.homeWiFi
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [wifi], bluetooth: central, payload: payload)
            guard case .failure(.stepFailed(.passcodeSession, let failure)) = outcome else {
                Issue.record("expected PASE to fail: \(outcome)")
                return
            }
            #expect(failure.kind == .wrongPasscode)
            #expect(try await hub.store.nodes().isEmpty)
            #expect(await eventually(within: .seconds(30)) { await proxy.peripheral.isConnected == false })
            #expect(await device.bluetoothAdvertisement != nil)
            await device.shutdown()
        }
    }

    /// The device joins the network but is never found on IP: operational discovery fails saying so, our fabric is
    /// taken back over the BLE connection still open, and the fail-safe takes the network back: it is off IP again.
    @Test func aDeviceThatJoinsButNeverAppearsOnIPIsRolledBack() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub, central, proxy) = try await Self.freshFromItsBox(
                in: directory, radio: .wifi([Self.home]))
            let device = fixture.device
            let wifi = Self.homeWiFi
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [wifi], bluetooth: central, operationalDiscovery: { _, _ in [] })
            // The undo went over the BLE connection, let go after it.
            #expect(await eventually(within: .seconds(30)) { proxy.commands.last == "disconnect" })
            guard case .failure(.stepFailed(.operationalDiscovery, let failure)) = outcome else {
                Issue.record("expected operational discovery to fail: \(outcome)")
                return
            }
            #expect(failure.reason.hasPrefix("the device joined the network but did not appear on IP"))
            #expect(try await hub.store.nodes().isEmpty)
            #expect(await device.fabrics.isEmpty)
            try await CrashPointTests.letTheFailSafeExpire(network, fixture)
            #expect(await device.networks.isEmpty)
            // The fail-safe's effects are carried out after its expiry is seen.
            #expect(await eventually(within: .seconds(10)) { await device.node.onIP == false })
            #expect(await device.bluetoothAdvertisement != nil)
            await device.shutdown()
        }
    }

    /// Asked to scan first, the device looks for the network: one it sees goes on (its signal said), one it does not
    /// fails network setup before any credentials are given.
    @Test(arguments: [("home", true), ("cafe", false)])
    func scanningFirstFindsTheNetworkOrFailsBeforeGivingIt(ssid: String, inRange: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub, central, proxy) = try await Self.freshFromItsBox(
                in: directory, radio: .wifi([Self.home]))
            let device = fixture.device
            let notes = Mutex<[String]>([])
            let credentials = NetworkCredentials.wifi(ssid: Array(ssid.utf8), credentials: Array("secret99".utf8))
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [credentials], bluetooth: central, scanNetworks: true,
                operationalDiscovery: { _, _ in await device.isOnIP ? [fixture.address] : [] }
            ) { progress in
                if case .note(let text) = progress { notes.withLock { $0.append(text) } }
            }
            if inRange {
                _ = try outcome.get()
                #expect(notes.withLock { $0 }.contains("the device sees the Wi-Fi network \"home\" at -48 dBm"))
                #expect(notes.withLock { $0 }.contains("the device joined the Wi-Fi network \"home\""))
            } else {
                guard case .failure(.stepFailed(.networkSetup, let failure)) = outcome else {
                    Issue.record("expected network setup to fail: \(outcome)")
                    return
                }
                #expect(failure.reason == "the device does not see the Wi-Fi network \"cafe\"")
                #expect(failure.kind == .deviceNotFound)
                try await CrashPointTests.letTheFailSafeExpire(network, fixture)
                #expect(await device.networks.isEmpty, "nothing was given")
            }
            _ = proxy
            await device.shutdown()
        }
    }

    @Test func aThreadDeviceScanningFirstSeesTheNetworkByItsExtendedPANID() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub, central, proxy) = try await Self.freshFromItsBox(
                in: directory, radio: .thread(extendedPANIDs: [Self.extendedPANID]))
            let device = fixture.device
            let notes = Mutex<[String]>([])
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [.thread(operationalDataset: Self.dataset)], bluetooth: central,
                scanNetworks: true, operationalDiscovery: { _, _ in await device.isOnIP ? [fixture.address] : [] }
            ) { progress in
                if case .note(let text) = progress { notes.withLock { $0.append(text) } }
            }
            _ = try outcome.get()
            #expect(
                notes.withLock { $0 }.contains(
                    "the device sees the Thread network DEAD00BEEF00CAFE (Thread-CAFE) at -60 dBm"))
            _ = proxy
            await device.shutdown()
        }
    }

    @Test func withNoProxyConnectedTheDiscoveryStepSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture, hub) = try await Self.start(in: directory, radio: .wifi([Self.home]))
            let wifi = Self.homeWiFi
            let outcome = try await Self.commission(
                fixture, hub, network, networks: [wifi], bluetooth: BLEProxyCentral(clock: network.clock))
            guard case .failure(.stepFailed(.discovery, let failure)) = outcome else {
                Issue.record("expected discovery to fail: \(outcome)")
                return
            }
            #expect(failure.kind == .hubFailure)
            #expect(failure.reason.contains("no BLE proxy is connected"))
            await fixture.device.shutdown()
        }
    }

    /// A device fresh from its box on the test network, a hub, and the hub's BLE proxy central with the device
    /// connected to it as its own proxy client (every frame recorded).
    private struct BLEProxyNotReady: Error {}

    private typealias WiFi = WiFiNetworkDiagnosticsCluster
    private typealias Thread = ThreadNetworkDiagnosticsCluster

    /// The device's network diagnostics attribute, as its data model answers a reader.
    private static func diagnostic<Value>(
        _ attribute: AttributeDefinition<Value>, of fixture: LoopbackFixture
    ) async throws -> TLVValue {
        let path = ConcreteAttributePath(
            endpoint: 0, cluster: attribute.cluster.rawValue, attribute: attribute.id.rawValue)
        return try await fixture.device.node.model.read(path, isFabricFiltered: false, context: NodeFixture.pase).get()
    }

    private static func freshFromItsBox(
        in directory: String, radio: SimulatedRadio
    ) async throws -> (ClockedNetwork, LoopbackFixture, Hub, BLEProxyCentral, BLEProxyPipe) {
        let (network, fixture, hub) = try await start(in: directory, radio: radio, freshFromItsBox: true)
        let central = BLEProxyCentral(clock: network.clock)
        let device = fixture.device
        let proxy = await BLEProxyPipe(central: central, recording: true) { send in
            BLEProxyPeripheral(
                address: "02:00:00:00:0F:00", transport: device.node.transport,
                advertisement: { await device.bluetoothAdvertisement }, send: send)
        }
        // The proxy's hello reaches the hub through the pipe's own task: a commissioning begun before it is heard
        // would find no proxy.
        guard await eventually(within: .seconds(10), { await central.isAvailable }) else {
            throw BLEProxyNotReady()
        }
        return (network, fixture, hub, central, proxy)
    }

    private static func start(
        in directory: String, radio: SimulatedRadio?, freshFromItsBox: Bool = false
    ) async throws -> (ClockedNetwork, LoopbackFixture, Hub) {
        let network = ClockedNetwork(clock: ManualClock(), seed: 17)
        let fixture = try await LoopbackFixture.start(
            in: directory, network: network, radio: radio, freshFromItsBox: freshFromItsBox)
        return (network, fixture, try await Hub(statePath: fixture.hubPath))
    }

    private static func commission(
        _ fixture: LoopbackFixture, _ hub: Hub, _ network: ClockedNetwork, credentials: NetworkCredentials,
        progress: @escaping @Sendable (CommissioningProgress) -> Void = { _ in }
    ) async throws -> Result<CommissioningResult, CommissioningError> {
        try await commission(fixture, hub, network, networks: [credentials], progress: progress)
    }

    /// Over BLE through `bluetooth` when given one (then with no address, and `interfaces` to look for it on IP).
    private static func commission(
        _ fixture: LoopbackFixture, _ hub: Hub, _ network: ClockedNetwork, networks: [NetworkCredentials],
        bluetooth: (any BluetoothCentral)? = nil, payload: SetupPayload? = nil, scanNetworks: Bool = false,
        operationalDiscovery: @escaping Commissioner.OperationalDiscovery = Commissioner.mDNSOperationalDiscovery,
        progress: @escaping @Sendable (CommissioningProgress) -> Void = { _ in }
    ) async throws -> Result<CommissioningResult, CommissioningError> {
        let transport = try fixture.controllerTransport()
        defer { Task { await transport.shutdown() } }
        let commissioner = Commissioner(
            authority: hub.authority, store: hub.store, transport: transport,
            operationalDiscovery: operationalDiscovery, progress: progress)
        var asked = try fixture.request(payload: payload)
        asked.networks = networks
        asked.scanNetworks = scanNetworks
        if let bluetooth {
            asked.bluetooth = bluetooth
            asked.address = nil
            asked.interfaces = ["lo"]
        }
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
