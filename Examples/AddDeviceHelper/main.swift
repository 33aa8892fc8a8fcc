// Example helper: the three calls of the add-device flow, carried out with HomeMatterCommissioner on the app group
// the app launched it with (see MatterAddDeviceHelper for the invocations).
import Foundation
import HomeAPI

struct ExampleHandler: MatterAddDeviceRequestHandler {
    let commissioner: HomeMatterCommissioner

    func commissionDevice(
        in home: MatterAddDeviceRequest.Home, onboardingPayload: String, commissioningID: UUID
    ) async throws {
        try await commissioner.commissionMatterDevice(onboardingPayload: onboardingPayload)
    }

    func rooms(in home: MatterAddDeviceRequest.Home) async throws -> [MatterAddDeviceRequest.Room] {
        try commissioner.fetchRooms()
    }

    func configureDevice(named name: String, in room: MatterAddDeviceRequest.Room) async throws {
        await commissioner.configureMatterDevice(deviceName: name, roomName: room.displayName)
    }
}

exit(
    await MatterAddDeviceHelper.run(Array(CommandLine.arguments.dropFirst())) { appGroup in
        ExampleHandler(commissioner: try HomeMatterCommissioner(appGroup: appGroup))
    })
