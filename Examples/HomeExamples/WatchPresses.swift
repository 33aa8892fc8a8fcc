import HomeAPI

/// Follow a switch's button presses: each InitialPress event once, with its number and position, as it happens.
enum WatchPresses {
    static func run(_ home: Home, device name: String, count: Int) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        guard device.types.contains(GenericSwitchDeviceType.self) else {
            print("\(device.name) is not a Generic Switch")
            return
        }
        var seen = 0
        for try await press in device.events.subscribe(SwitchTrait.InitialPressEvent.self) {
            print("\(device.name): pressed (position \(press.event.newPosition), event \(press.number))")
            seen += 1
            if seen == count { return }
        }
    }
}
