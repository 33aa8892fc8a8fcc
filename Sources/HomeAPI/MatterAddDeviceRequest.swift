import Foundation
import HomeEngine
import HubWire

/// A request to add one Matter device to a home: who asks (the ecosystem), into which home, and optionally the device's
/// onboarding payload. `perform` runs the add-device flow through a handler (see `MatterAddDeviceRequestHandler`):
/// commission the device, list the rooms, then name the device and put it in a room. Call it between
/// `prepareForMatterCommissioning()` and `completeMatterCommissioning()` (or `cancelMatterCommissioning()` on error).
public struct MatterAddDeviceRequest: Sendable, Hashable {
    public struct Topology: Sendable, Hashable {
        public var ecosystemName: String
        public var homes: [Home]

        public init(ecosystemName: String, homes: [Home]) {
            self.ecosystemName = ecosystemName
            self.homes = homes
        }
    }

    /// A home of the ecosystem, by the name the user knows it by (the structure's name).
    public struct Home: Sendable, Hashable {
        public var displayName: String

        public init(displayName: String) {
            self.displayName = displayName
        }
    }

    public struct Room: Sendable, Hashable {
        public var displayName: String

        public init(displayName: String) {
            self.displayName = displayName
        }
    }

    public var topology: Topology
    /// The device's `MT:` QR payload or manual pairing code; nil: the flow asks for it.
    public var setupPayload: String?

    public init(topology: Topology, setupPayload: String? = nil) {
        self.topology = topology
        self.setupPayload = setupPayload
    }

    /// Runs the flow in this process, on the hub `Home.connect()` opens, asking on the terminal for what it needs.
    public func perform() async throws(HomeError) {
        let home = try await HomeAPI.Home.connect()
        let handler = HomeMatterCommissioner(context: home.context)
        try await perform(handler: handler, interaction: TerminalInteraction())
    }

    /// Runs the flow through `handler`, asking `interaction` for the payload (when the request has none), the room and
    /// the name. Every failure is a `HomeError` naming the step.
    public func perform(
        handler: some MatterAddDeviceRequestHandler, interaction: some MatterAddDeviceInteraction
    ) async throws(HomeError) {
        guard let home = topology.homes.first else {
            throw HomeError(.invalidArgument, "the request's topology names no home")
        }
        let payload: String
        if let setupPayload {
            payload = setupPayload
        } else {
            payload = try interaction.onboardingPayload()
        }
        interaction.progress("Adding the device to \(home.displayName)…")
        try await step("commissioning") {
            try await handler.commissionDevice(in: home, onboardingPayload: payload, commissioningID: UUID())
        }
        interaction.progress("Commissioned.")
        let rooms = try await step("listing the rooms") { try await handler.rooms(in: home) }
        let room = try interaction.room(choosingFrom: rooms)
        let name = try interaction.deviceName()
        // Checked here, in the app's process: a helper cannot report a bad name back (its configure call does not throw).
        _ = try HomeName.validated(room.displayName, naming: "room")
        _ = try HomeName.validated(name, naming: "device")
        try await step("configuring the device") { try await handler.configureDevice(named: name, in: room) }
        interaction.progress("\(name) is in \(room.displayName).")
    }

    private func step<Result>(_ name: String, _ body: () async throws -> Result) async throws(HomeError) -> Result {
        do {
            return try await body()
        } catch let error as HomeError {
            throw error
        } catch {
            throw HomeError(.unknown, "\(name): \(error)")
        }
    }
}
