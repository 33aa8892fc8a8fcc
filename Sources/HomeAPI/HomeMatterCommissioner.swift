import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterCertificates
import MatterOnboarding
import MatterPlatform
import Synchronization

/// The three calls of the add-device flow, for the process that carries it out (a helper executable sharing the app's
/// app group, or the app itself): commission a device into the open session, list the rooms, name and place the device.
/// Every call checks that a session prepared by `Structure.prepareForMatterCommissioning()` is open.
public final class HomeMatterCommissioner: Sendable {
    /// Where the flow's calls go: a `Home` given, or the one of an app group, opened on the first call that needs
    /// the hub.
    private let home: OpenedOnFirstUse
    /// The home's state directory, where the session's state is read (`fetchRooms`).
    private let stateDirectory: String
    /// Where the device being added answers, when the caller already knows it; nil: found by discovery.
    let deviceAddress: SocketAddress?

    /// The home in the app group container, through its hub: the app serving it (the usual case: the app started
    /// this helper), or this process when none does, reached on the first call that needs the hub. Throws when the
    /// container does not exist, or holds no hub state because the app never configured it
    /// (`Home.configure { $0.sharedAppGroup = … }`, then `Home.connect()`). Synchronous, as the flow's documentation
    /// writes it.
    public convenience init(appGroup: String) throws(HomeError) {
        try self.init(appGroup: appGroup, environment: ProcessInfo.processInfo.environment)
    }

    /// The app group container as `environment` (`XDG_DATA_HOME`, `HOME`) places it. Discovery settings come from the
    /// session the app prepared, not from this process's configuration.
    init(appGroup: String, environment: [String: String]) throws(HomeError) {
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
        home = OpenedOnFirstUse(stateDirectory: path)
        stateDirectory = path
        deviceAddress = nil
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

    init(context: HomeContext, deviceAddress: SocketAddress? = nil) {
        home = OpenedOnFirstUse(context: context)
        stateDirectory = context.hub.stateDirectory
        self.deviceAddress = deviceAddress
    }

    /// Commissions the device the onboarding payload (an `MT:` QR payload or a manual pairing code) names onto the hub,
    /// as part of the open session; its devices join the session's structure, in no room, under the product's name.
    public func commissionMatterDevice(onboardingPayload: String) async throws(HomeError) {
        _ = try await home.context().perform(
            CommissionInSession(payload: onboardingPayload, deviceAddress: deviceAddress))
    }

    /// The rooms of the session's structure. Synchronous, as the flow's documentation writes it: read from the open
    /// session's state in the home's directory (`CommissioningSessionState`), which the hub keeps current.
    public func fetchRooms() throws(HomeError) -> [MatterAddDeviceRequest.Room] {
        guard let session = try CommissioningSessionState.read(stateDirectory: stateDirectory) else {
            throw HomeError(.failedPrecondition, HubStoreError.noCommissioningSession.description)
        }
        return session.rooms.map { MatterAddDeviceRequest.Room(displayName: $0) }
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
        _ = try await home.context().perform(ConfigureCommissioned(name: deviceName, room: roomName))
    }
}

/// A commissioner's home: given, or opened on first use from a state directory and kept while the commissioner
/// lives (this process may then be the home's hub). Callers that come at once share the one opening; one that failed
/// is tried again by the next call.
private final class OpenedOnFirstUse: Sendable {
    private enum State {
        case opened(HomeContext, Home?)
        case toOpen(String)
        case opening(Task<Result<Home, HomeError>, Never>, String)
    }

    private enum Step {
        case ready(HomeContext)
        case wait(Task<Result<Home, HomeError>, Never>, String)
    }

    private let state: Mutex<State>

    init(context: HomeContext) {
        state = Mutex(.opened(context, nil))
    }

    init(stateDirectory: String) {
        state = Mutex(.toOpen(stateDirectory))
    }

    func context() async throws(HomeError) -> HomeContext {
        let step = state.withLock { state -> Step in
            switch state {
            case .opened(let context, _): return .ready(context)
            case .opening(let task, let path): return .wait(task, path)
            case .toOpen(let path):
                let task = Task { () -> Result<Home, HomeError> in
                    do throws(HomeError) {
                        return .success(try await Home.connect(Home.Configuration(stateDirectory: path)))
                    } catch {
                        return .failure(error)
                    }
                }
                state = .opening(task, path)
                return .wait(task, path)
            }
        }
        switch step {
        case .ready(let context): return context
        case .wait(let task, let path):
            switch await task.value {
            case .success(let home):
                state.withLock { if case .opening = $0 { $0 = .opened(home.context, home) } }
                return home.context
            case .failure(let error):
                state.withLock { if case .opening = $0 { $0 = .toOpen(path) } }
                throw error
            }
        }
    }
}
