/// The person's side of an add-device flow: the answers `MatterAddDeviceRequest.perform` needs, and the progress it shows.
public protocol MatterAddDeviceInteraction: Sendable {
    /// The device's onboarding payload, asked only when the request carries none.
    func onboardingPayload() throws(HomeError) -> String
    /// A room from `rooms`, or a new one.
    func room(choosingFrom rooms: [MatterAddDeviceRequest.Room]) throws(HomeError) -> MatterAddDeviceRequest.Room
    func deviceName() throws(HomeError) -> String
    func progress(_ line: String)
}
