import HomeAPI

/// The person's side of one add-device flow of `home demo`: the payload, room and name are known in advance.
struct DemoInteraction: MatterAddDeviceInteraction {
    let payload: String
    let room: String
    let name: String

    func onboardingPayload() throws(HomeError) -> String { payload }
    func room(choosingFrom rooms: [MatterAddDeviceRequest.Room]) throws(HomeError) -> MatterAddDeviceRequest.Room {
        .init(displayName: room)
    }
    func deviceName() throws(HomeError) -> String { name }
    func progress(_ line: String) {}
}
