import Foundation
import HomeAPI
import HomeHub
import HomeRecords

/// What `home rooms` prints: a table of the rooms by name with their structure and device count, or a JSON array.
enum RoomList {
    static func render(rooms: Set<Room>, structures: Set<Structure>, devices: Set<HomeDevice>, json: Bool) -> String {
        let structureNames = Dictionary(structures.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let sorted = rooms.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        let devicesByRoom = Dictionary(grouping: devices.filter { $0.roomID != nil }) { $0.roomID ?? "" }
            .mapValues { $0.map(\.id).sorted() }
        if json {
            return JSONValue.array(
                sorted.map { room in
                    .object([
                        ("id", .string(room.id)),
                        ("name", .string(room.name)),
                        ("structure", structureNames[room.structureID].map(JSONValue.string) ?? .null),
                        ("deviceIDs", .array(devicesByRoom[room.id, default: []].map(JSONValue.string))),
                    ])
                }
            ).rendered + "\n"
        }
        guard !sorted.isEmpty else { return "No rooms yet. Add one with 'home room add NAME'.\n" }
        return TextTable.render(
            header: ["ROOM", "STRUCTURE", "DEVICES"],
            rows: sorted.map { room in
                [room.name, structureNames[room.structureID] ?? "-", String(devicesByRoom[room.id, default: []].count)]
            })
    }
}
