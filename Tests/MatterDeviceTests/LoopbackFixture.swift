import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterCrypto
import MatterDevice
import MatterDiscovery
import MatterInteraction
import MatterNode
import MatterOnboarding
import MatterPlatform
import MatterSecureChannel
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

/// The device's console lines, collected for assertions.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    var all: [String] { lines.withLock { $0 } }
}

/// A device and a hub in one temporary directory, talking over loopback with no mDNS.
struct LoopbackFixture {
    static let passcode: UInt32 = 20202021
    static let discriminator: UInt16 = 3840

    let directory: String
    let store: DeviceStore
    let device: VirtualDevice
    let lines: LogLines
    /// The test network and its manual clock, when the device runs on one instead of loopback UDP.
    var network: ClockedNetwork? = nil

    var address: SocketAddress { .ipv4(IPv4Address(127 << 24 | 1), port: device.port) }
    var hubPath: String { directory + "/hub" }

    /// Starts the device stored in `directory/name` (created on first use as a `kind`) on `port` (0: ephemeral).
    /// On `network`, the device's sockets are the network's and its timers run on the network's manual clock.
    static func start(
        in directory: String, port: UInt16 = 0, kind: DeviceKind = .light,
        simulation: Simulation = Simulation(), network: ClockedNetwork? = nil, name: String = "device",
        passcode: UInt32 = passcode, discriminator: UInt16 = discriminator, radio: SimulatedRadio? = nil,
        freshFromItsBox: Bool = false, intermittent: IntermittentConnection? = nil
    ) async throws -> LoopbackFixture {
        let store = DeviceStore(directory: directory + "/" + name)
        let state = try store.loadOrCreate(DeviceSettings(kind: kind, passcode: passcode, discriminator: discriminator))
        let lines = LogLines()
        let device: VirtualDevice
        if let network {
            device = try VirtualDevice(
                store: store, state: state, sockets: network.sockets(), multicast: network, simulation: simulation,
                radio: radio, freshFromItsBox: freshFromItsBox, intermittent: intermittent, clock: network.clock,
                log: lines.append)
        } else {
            device = try VirtualDevice(
                store: store, state: state, port: port, simulation: simulation, radio: radio, log: lines.append)
        }
        try await device.start()
        return LoopbackFixture(directory: directory, store: store, device: device, lines: lines, network: network)
    }

    /// A controller transport: on the fixture's network when it has one, else on loopback UDP.
    func controllerTransport() throws -> MatterTransport {
        try network?.transport() ?? MatterTransport()
    }

    /// On the fixture's network: the device commissioned onto `hub` by our own commissioner, the network's clock
    /// driven meanwhile; its node ID.
    func commissionDriven(_ hub: Hub) async throws -> UInt64 {
        let network = try #require(network)
        let setup = try controllerTransport()
        let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: setup)
        let request = try request()
        let commissioned = await drive(network.clock, step: .milliseconds(5)) {
            try? await commissioner.commission(request)
        }
        await setup.shutdown()
        return try #require(commissioned?.value?.nodeID)
    }

    /// On the fixture's network: the device commissioned onto `hub`, then a CASE session from the hub's credentials
    /// on a transport of its own, and a client on it.
    func commissionAndConnect(
        _ hub: Hub
    ) async throws -> (nodeID: UInt64, client: InteractionClient, transport: MatterTransport) {
        let network = try #require(network)
        let nodeID = try await commissionDriven(hub)
        let transport = try controllerTransport()
        let session = await drive(network.clock, step: .milliseconds(5)) {
            try? await caseClient(hub, nodeID: nodeID, transport: transport)
        }
        return (nodeID, try #require(session?.value ?? nil), transport)
    }

    /// A trust store holding only this device's development PAA.
    var trustStore: PAATrustStore {
        get throws { PAATrustStore(certificates: [try X509Certificate(derEncoded: device.attestation.paa)]) }
    }

    /// Commissions the device onto the hub in `hubPath` with our own commissioner.
    func commission(hub: Hub, payload: SetupPayload? = nil) async throws -> CommissioningResult {
        try await hub.commission(try request(payload: payload), name: "lamp", room: nil, progress: { _ in })
    }

    /// A commissioning of this device at its address, with `payload` or its own.
    func request(payload: SetupPayload? = nil) throws -> CommissioningRequest {
        CommissioningRequest(payload: payload ?? device.setupPayload, address: address, trustStore: try trustStore)
    }

    /// A CASE session from the hub's own node, and a client on it.
    func caseClient(_ hub: Hub, nodeID: UInt64, transport: MatterTransport) async throws -> InteractionClient {
        try await caseClient(
            credentials: hub.authority.operationalCredentials, validator: hub.authority.peerValidator, nodeID: nodeID,
            transport: transport)
    }

    func caseClient(
        credentials: OperationalCredentials, validator: FabricPeerValidator, nodeID: UInt64,
        transport: MatterTransport
    ) async throws -> InteractionClient {
        let session = try await SessionEstablishment.case(
            with: address, nodeID: nodeID, credentials: credentials, validator: validator, over: transport)
        return InteractionClient(
            transport: transport, session: session.session, peerParameters: session.established.mrpParameters)
    }

    /// A PASE session with `passcode`, and a client on it.
    func paseClient(
        passcode: UInt32 = LoopbackFixture.passcode, transport: MatterTransport
    ) async throws -> (InteractionClient, SessionEstablishment.Result) {
        let pase = try await SessionEstablishment.pase(with: .udp(address), passcode: passcode, over: transport)
        return (
            InteractionClient(
                transport: transport, session: pase.session, peerParameters: pase.established.mrpParameters), pase
        )
    }
}

/// A fresh directory under the system's temporary directory, removed when the body returns.
func withTemporaryDirectory<Result>(_ body: (String) async throws -> Result) async throws -> Result {
    var template = Array((NSTemporaryDirectory() + "/swift-home-device-tests-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    let path = String(cString: created)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}
