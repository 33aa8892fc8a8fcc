import Foundation

/// What carries out an add-device flow: an object in this process (`HomeMatterCommissioner` is one), or a helper
/// executable (`MatterAddDeviceHelperProcess`). The calls come in this order, once each.
public protocol MatterAddDeviceRequestHandler: Sendable {
    /// Commissions the device the payload names into the open session; `commissioningID` names this attempt.
    func commissionDevice(
        in home: MatterAddDeviceRequest.Home, onboardingPayload: String, commissioningID: UUID) async throws
    /// The rooms the user may pick from.
    func rooms(in home: MatterAddDeviceRequest.Home) async throws -> [MatterAddDeviceRequest.Room]
    /// Names the device just commissioned and puts it in the room (created when new).
    func configureDevice(named name: String, in room: MatterAddDeviceRequest.Room) async throws
}

extension HomeMatterCommissioner: MatterAddDeviceRequestHandler {
    public func commissionDevice(
        in home: MatterAddDeviceRequest.Home, onboardingPayload: String, commissioningID: UUID
    ) async throws {
        try await commissionMatterDevice(onboardingPayload: onboardingPayload)
    }

    public func rooms(in home: MatterAddDeviceRequest.Home) async throws -> [MatterAddDeviceRequest.Room] {
        try fetchRooms()
    }

    public func configureDevice(named name: String, in room: MatterAddDeviceRequest.Room) async throws {
        try await configure(deviceName: name, roomName: room.displayName)
    }
}
