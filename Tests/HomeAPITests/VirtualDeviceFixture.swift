import Foundation
import HomeHub
import HomeRecords
import MatterDevice
import MatterDiscovery
import MatterPlatform
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// Our own virtual device on loopback (no mDNS) and a home in one temporary directory whose configuration points
/// commissioning at the device's address and trusts the device's development PAA (in the state directory's `paa/`).
struct VirtualDeviceFixture {
    let directory: String
    let device: VirtualDevice
    let home: Home

    var statePath: String { directory + "/hub" }
    var address: SocketAddress { .ipv4(IPv4Address(127 << 24 | 1), port: device.port) }
    var qrCode: String { get throws { try device.setupPayload.qrCode() } }

    static func start(
        in directory: String, callerUID: UInt32 = getuid(), interfaces: [String] = []
    ) async throws -> VirtualDeviceFixture {
        let store = DeviceStore(directory: directory + "/device")
        let state = try store.loadOrCreate(DeviceSettings(passcode: 20202021, discriminator: 3840))
        let device = try VirtualDevice(store: store, state: state, port: 0, log: { _ in })
        try await device.start()
        try FileManager.default.createDirectory(atPath: directory + "/hub/paa", withIntermediateDirectories: true)
        try Data(device.attestation.paa).write(to: URL(fileURLWithPath: directory + "/hub/paa/development-paa.der"))
        var configuration = Home.Configuration(stateDirectory: directory + "/hub", networkInterfaces: interfaces)
        configuration.commissioningAddress = .ipv4(IPv4Address(127 << 24 | 1), port: device.port)
        let home = try await Home.open(
            statePath: directory + "/hub", configuration: configuration, callerUID: callerUID)
        return VirtualDeviceFixture(directory: directory, device: device, home: home)
    }

    /// The home's only structure.
    func structure() async throws -> Structure {
        let structures = try await home.structures().list()
        guard let first = structures.first, structures.count == 1 else {
            throw HomeError(.internal, "expected one structure, found \(structures.count)")
        }
        return first
    }

    func request(_ structure: Structure, payload: String?) -> MatterAddDeviceRequest {
        MatterAddDeviceRequest(
            topology: .init(ecosystemName: "Tests", homes: [.init(displayName: structure.name)]), setupPayload: payload)
    }

    var commissioner: HomeMatterCommissioner { HomeMatterCommissioner(context: home.context) }

    /// Opens the device's basic commissioning window (its onboarding passcode again) through `home`, one of its
    /// administrators: the way a second ecosystem, or the same hub by mistake, gets to commission it once more.
    func openBasicCommissioningWindow(through home: Home) async throws {
        let devices = try await home.devices().list()
        let device = try #require(devices.first, "the home has no device to open the window of")
        let root = try #require(await device.types.get(RootNodeDeviceType.self), "the device has no root node")
        let administration = try #require(root.matterTraits.administratorCommissioningTrait)
        try await administration.openBasicCommissioningWindow(commissioningTimeout: 180)
        #expect(await self.device.isCommissioningWindowOpen)
    }

    /// Opens the home's add-device session as another live process does (a `sleep`, which the test kills to play a
    /// crash); returns that process.
    func openSessionOwnedByAnotherProcess(_ structure: Structure) async throws -> ChildProcess {
        let other = try ChildProcess(executable: "/bin/sleep", arguments: ["60"])
        let owner = try #require(ProcessIdentity.running(pid: other.pid))
        try await home.context.store.openCommissioningSession(
            CommissioningSessionRecord(
                id: "other process", structureID: structure.id, owner: owner, deadline: Date().addingTimeInterval(600),
                interfaces: [], paaTrustStore: statePath + "/paa"), now: Date())
        return other
    }

    /// Every node of the store, whatever its state: what "no trace" is checked against.
    func storedNodeIDs() async throws -> [UInt64] {
        try await home.context.store.nodes().map(\.nodeID)
    }
}

/// Answers given in advance; asks nothing.
struct PresetInteraction: MatterAddDeviceInteraction {
    var room: String
    var name: String

    func onboardingPayload() throws(HomeError) -> String { throw HomeError(.failedPrecondition, "no payload preset") }
    func room(choosingFrom rooms: [MatterAddDeviceRequest.Room]) throws(HomeError) -> MatterAddDeviceRequest.Room {
        .init(displayName: room)
    }
    func deviceName() throws(HomeError) -> String { name }
    func progress(_ line: String) {}
}

/// Commissions for real, then fails when asked for the rooms: a flow interrupted after AddNOC (and CommissioningComplete).
struct FailingAfterCommissioningHandler: MatterAddDeviceRequestHandler {
    let commissioner: HomeMatterCommissioner

    func commissionDevice(
        in home: MatterAddDeviceRequest.Home, onboardingPayload: String, commissioningID: UUID
    ) async throws {
        try await commissioner.commissionDevice(
            in: home, onboardingPayload: onboardingPayload, commissioningID: commissioningID)
    }

    func rooms(in home: MatterAddDeviceRequest.Home) async throws -> [MatterAddDeviceRequest.Room] {
        throw HomeError(.aborted, "the user closed the flow")
    }

    func configureDevice(named name: String, in room: MatterAddDeviceRequest.Room) async throws {}
}

/// A fresh directory under the system's temporary directory, removed when the body returns.
func withTemporaryDirectory<Result>(_ body: (String) async throws -> Result) async throws -> Result {
    var template = Array((NSTemporaryDirectory() + "/swift-home-addflow-tests-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    let path = String(cString: created)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}
