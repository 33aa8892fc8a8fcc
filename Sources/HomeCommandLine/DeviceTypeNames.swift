import HomeHub
import HomeRecords
import MatterDataModel

/// Device types as people read them, from the generated Matter device library: "On/Off Light", "Dimmable Light";
/// a type the library lacks (a vendor's) shows as its ID.
enum DeviceTypeNames {
    static func name(_ deviceType: UInt32) -> String { MatterDeviceTypes.name(of: deviceType) }

    /// "On/Off Light, Dimmable Light".
    static func list(_ types: [EndpointDeviceType]) -> String {
        types.map { name($0.deviceType) }.joined(separator: ", ")
    }

    /// `{"id":256,"name":"On/Off Light","revision":3}` for each type.
    static func json(_ types: [EndpointDeviceType]) -> JSONValue {
        .array(
            types.map { type in
                .object([
                    ("id", .unsigned(UInt64(type.deviceType))), ("name", .string(name(type.deviceType))),
                    ("revision", .unsigned(UInt64(type.revision))),
                ])
            })
    }
}
