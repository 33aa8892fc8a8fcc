import HomeAPI

/// List all devices: each device of the home, by name, with its room.
enum ListDevices {
    static func run(_ home: Home) async throws(HomeError) {
        let roomNames = Dictionary(uniqueKeysWithValues: try await home.rooms().list().map { ($0.id, $0.name) })
        for device in try await home.devices().list().sorted(by: { $0.name < $1.name }) {
            let room = device.roomID.flatMap { roomNames[$0] } ?? "no room"
            print("\(device.name) (\(device.id)) in \(room)")
        }
    }
}
