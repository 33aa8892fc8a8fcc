import Foundation
import HomeHub
import HomeRecords
import MatterDataModel
import MatterInteraction

/// What the dashboard's page shows, built here from the live model so that the page only draws: the home's
/// structures and rooms, and each device as people see it — its name, room, type, whether it answers, and the
/// controls that fit it with their values now. Node IDs travel as hex text: a page's numbers cannot hold 64 bits.
enum DashboardView {
    static func home(_ snapshot: HomeModel.Snapshot) -> JSONValue {
        .object([
            (
                "structures",
                .array(snapshot.structures.map { .object([("id", .string($0.id)), ("name", .string($0.name))]) })
            ),
            (
                "rooms",
                .array(
                    snapshot.rooms.map {
                        .object([
                            ("id", .string($0.id)), ("name", .string($0.name)),
                            ("structureID", .string($0.structureID)),
                        ])
                    })
            ),
            ("devices", .array(devices(of: Array(snapshot.devices.keys), in: snapshot))),
        ])
    }

    /// The devices of `nodeIDs`, in ID order.
    static func devices(of nodeIDs: [UInt64], in snapshot: HomeModel.Snapshot) -> [JSONValue] {
        nodeIDs.sorted().flatMap { nodeID in
            (snapshot.devices[nodeID] ?? []).map { device($0, snapshot) }
        }
    }

    static func device(_ record: DeviceRecord, _ snapshot: HomeModel.Snapshot) -> JSONValue {
        let view = snapshot.views[record.id.nodeID]
        let state = view?.state ?? .connecting
        let structureID = snapshot.structureID(ofRoom: record.roomID)
        var fields: [(String, JSONValue)] = [
            ("id", .string(record.id.description)), ("node", .string(MatterServerTopology.hex(record.id.nodeID))),
            ("endpoint", .unsigned(UInt64(record.id.endpoint))), ("name", .string(record.name)),
            ("roomID", record.roomID.map(JSONValue.string) ?? .null),
            ("room", record.roomName.map(JSONValue.string) ?? .null),
            ("structureID", structureID.map(JSONValue.string) ?? .null),
            ("types", .array(record.deviceTypes.map { .string(MatterDeviceTypes.name(of: $0.deviceType)) })),
            ("vendor", record.node.vendorName.map(JSONValue.string) ?? .null),
            ("product", record.node.productName.map(JSONValue.string) ?? .null),
            ("state", .string(stateName(state))), ("stateText", .string(state.description)),
        ]
        let cache = view?.cache ?? AttributeCache()
        fields.append(("controls", .array(controls(cache, endpoint: record.id.endpoint))))
        let events = (snapshot.recentEvents[record.id.nodeID] ?? []).filter { $0.endpoint == record.id.endpoint }
        if let last = events.last { fields.append(("lastEvent", event(last))) }
        return .object(fields)
    }

    static func event(_ event: NodeEvent) -> JSONValue {
        .object([("number", .unsigned(event.number)), ("text", .string(EventText.render(event)))])
    }

    /// "online", "offline", "asleep", "connecting": what the page styles and words by.
    static func stateName(_ state: ConnectionState) -> String {
        switch state {
        case .connecting: "connecting"
        case .online: "online"
        case .offline: "offline"
        case .asleep: "asleep"
        }
    }

    /// The controls and readings that fit what the endpoint serves, with their values now; none for what the node
    /// has not reported.
    static func controls(_ cache: AttributeCache, endpoint: UInt16) -> [JSONValue] {
        func value<Value>(_ attribute: AttributeDefinition<Value>) -> Value? {
            (try? cache.value(attribute, endpoint: endpoint)) ?? nil
        }
        var controls: [JSONValue] = []
        if let on = value(OnOffCluster.Attributes.onOff) {
            controls.append(.object([("kind", .string("onOff")), ("on", .bool(on))]))
        }
        if let level = value(LevelControlCluster.Attributes.currentLevel) {
            controls.append(
                .object([
                    ("kind", .string("level")), ("value", level.optional.map { .unsigned(UInt64($0)) } ?? .null),
                    ("min", .unsigned(UInt64(value(LevelControlCluster.Attributes.minLevel) ?? 1))),
                    ("max", .unsigned(UInt64(value(LevelControlCluster.Attributes.maxLevel) ?? 254))),
                ]))
        }
        if let mireds = value(ColorControlCluster.Attributes.colorTemperatureMireds) {
            controls.append(
                .object([
                    ("kind", .string("colorTemperature")), ("mireds", .unsigned(UInt64(mireds))),
                    ("min", .unsigned(UInt64(value(ColorControlCluster.Attributes.colorTempPhysicalMinMireds) ?? 153))),
                    ("max", .unsigned(UInt64(value(ColorControlCluster.Attributes.colorTempPhysicalMaxMireds) ?? 500))),
                ]))
        }
        if let contact = value(BooleanStateCluster.Attributes.stateValue) {
            controls.append(.object([("kind", .string("contact")), ("closed", .bool(contact))]))
        }
        if let celsius = value(TemperatureMeasurementCluster.Attributes.measuredValue) {
            controls.append(
                reading("Temperature", celsius.optional.map { String(format: "%.1f °C", Double($0) / 100) }))
        }
        if let humidity = value(RelativeHumidityMeasurementCluster.Attributes.measuredValue) {
            controls.append(reading("Humidity", humidity.optional.map { String(format: "%.1f %%", Double($0) / 100) }))
        }
        if let percent = value(FanControlCluster.Attributes.percentCurrent) {
            controls.append(reading("Fan speed", "\(percent) %"))
        }
        return controls
    }

    private static func reading(_ label: String, _ text: String?) -> JSONValue {
        .object([("kind", .string("reading")), ("label", .string(label)), ("text", .string(text ?? "unknown"))])
    }
}
