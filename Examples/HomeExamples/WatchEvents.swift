import HomeAPI

/// Follow a device's events for a while: every event once, in order; a switch's presses decoded as their type.
enum WatchEvents {
    static func run(_ home: Home, device name: String, seconds: Int) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        let heard = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var count = 0
                do {
                    for try await event in device.events.subscribeAll() {
                        count += 1
                        if let press = event.decoded(as: SwitchTrait.InitialPressEvent.self) {
                            print("\(device.name): pressed (position \(press.newPosition), event \(event.number))")
                        } else {
                            print("\(device.name): \(event) (event \(event.number))")
                        }
                    }
                } catch {
                    print("\(device.name): \(error)")
                }
                return count
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return 0
            }
            _ = await group.next()
            group.cancelAll()
            return await group.reduce(0, +)
        }
        print("\(device.name): \(heard) event(s) in \(seconds) s")
    }
}
