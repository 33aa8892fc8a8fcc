import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterCertificates
import MatterOnboarding
import MatterPlatform

/// The three calls of the add-device flow, for the process that carries it out (a helper executable sharing the app's
/// app group, or the app itself): commission a device into the open session, list the rooms, name and place the device.
/// Every call checks that a session prepared by `Structure.prepareForMatterCommissioning()` is open.
public final class HomeMatterCommissioner: Sendable {
    let context: HomeContext
    /// Where the device being added answers, when the caller already knows it; nil: found by discovery.
    let deviceAddress: SocketAddress?
    /// The home opened for the app group, kept while the commissioner lives (it may be this process's hub).
    private let home: Home?

    /// The home in the app group container, through its hub: the app serving it (the usual case: the app started
    /// this helper), or this process when none does. Throws when the container does not exist, or holds no hub
    /// state because the app never configured it (`Home.configure { $0.sharedAppGroup = … }`, then `Home.connect()`).
    public convenience init(appGroup: String) async throws(HomeError) {
        try await self.init(appGroup: appGroup, environment: ProcessInfo.processInfo.environment)
    }

    /// The app group container as `environment` (`XDG_DATA_HOME`, `HOME`) places it. Discovery settings come from the
    /// session the app prepared, not from this process's configuration.
    convenience init(appGroup: String, environment: [String: String]) async throws(HomeError) {
        let configuration = Home.Configuration(sharedAppGroup: appGroup)
        guard let path = try configuration.statePath(environment: environment) else {
            throw HomeError(.internal, "the app group \(appGroup) resolved to no directory")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw HomeError(
                .notFound,
                "the app group container \(path) does not exist: the app must configure the app group and connect first"
            )
        }
        guard FileManager.default.fileExists(atPath: StateDirectory.databasePath(in: path)) else {
            throw HomeError(
                .failedPrecondition, "the app group container \(path) holds no hub state: the app never configured it")
        }
        let home = try await Home.connect(Home.Configuration(stateDirectory: path))
        self.init(context: home.context, home: home)
    }

    /// Carries out the flow in this process, on `home`'s hub.
    public convenience init(home: Home) {
        self.init(context: home.context)
    }

    /// Carries out the flow in this process, on `home`'s hub, reaching the device being added at `deviceAddress`
    /// instead of discovering it: devices on loopback (`home demo`), where no mDNS is sent.
    public convenience init(home: Home, deviceAddress: SocketAddress) {
        self.init(context: home.context, deviceAddress: deviceAddress)
    }

    init(context: HomeContext, deviceAddress: SocketAddress? = nil, home: Home? = nil) {
        self.context = context
        self.deviceAddress = deviceAddress
        self.home = home
    }

    /// Commissions the device the onboarding payload (an `MT:` QR payload or a manual pairing code) names onto the hub,
    /// as part of the open session; its devices join the session's structure, in no room, under the product's name.
    public func commissionMatterDevice(onboardingPayload: String) async throws(HomeError) {
        _ = try await context.perform(.commission(payload: onboardingPayload, deviceAddress: deviceAddress))
    }

    /// The rooms of the session's structure.
    public func fetchRooms() async throws(HomeError) -> [MatterAddDeviceRequest.Room] {
        guard case .names(let names) = try await context.perform(.commissioningRooms) else {
            throw HomeError(.internal, "the hub answered the session's rooms with something else")
        }
        return names.map { MatterAddDeviceRequest.Room(displayName: $0) }
    }

    /// Names the devices commissioned in this session (numbered when a node has several; a name is cut to 60 Unicode
    /// code points) and puts them in the room of that name, created in the session's structure when absent, or in no
    /// room when `roomName` is nil (the user chose none). It does
    /// not throw: when no session is open, nothing was commissioned or a name is empty, nothing changes and the reason
    /// goes to standard error (a helper process's standard error is what its app shows).
    public func configureMatterDevice(deviceName: String, roomName: String?) async {
        do {
            try await configure(deviceName: deviceName, roomName: roomName)
        } catch {
            FileHandle.standardError.write(
                Data("HomeMatterCommissioner: the device was not configured: \(error)\n".utf8))
        }
    }

    /// `configureMatterDevice`, with the failure thrown: for handlers whose caller can report it.
    func configure(deviceName: String, roomName: String?) async throws(HomeError) {
        _ = try await context.perform(.configureCommissioned(name: deviceName, room: roomName))
    }
}
