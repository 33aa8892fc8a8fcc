import HomeAPI

/// Put a device in a room: find the room by name (room names are unique whatever their case), create it when it is
/// new, and move the device there.
enum MoveToRoom {
    static func run(_ home: Home, device text: String, room roomName: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(text, in: home)
        let existing = try await home.rooms().list().first { $0.name.caseInsensitiveCompare(roomName) == .orderedSame }
        let room = if let existing { existing } else { try await home.createRoom(name: roomName) }
        let moved = try await home.move(device: device, to: room)
        print("\(moved.name) is in \(room.name)")
    }
}
