import MatterDataModel
import MatterNode

/// The kinds of device `matter-device --type` builds: each is a composition of application endpoints beside the
/// root node. A new kind adds a case and its endpoints.
public enum DeviceKind: String, CaseIterable, Sendable {
    case light
    case dimmableLight = "dimmable-light"
    case colorTemperatureLight = "color-temperature-light"
    case extendedColorLight = "extended-color-light"
    case plug
    case fan
    case temperatureSensor = "temperature-sensor"
    case humiditySensor = "humidity-sensor"
    case contactSensor = "contact-sensor"
    case switchPanel = "switch-panel"
    case bridge

    /// The endpoints after the root node.
    public func applicationEndpoints() -> [Endpoint] {
        let name = rawValue
        return switch self {
        case .light:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.onOffLight],
                    clusters: [
                        IdentifyServer(identifyType: .lightOutput), GroupsServer(), OnOffServer(name: name),
                    ])
            ]
        case .dimmableLight:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.dimmableLight],
                    clusters: [
                        IdentifyServer(identifyType: .lightOutput), GroupsServer(), OnOffServer(name: name),
                        LevelControlServer(name: name),
                    ])
            ]
        case .colorTemperatureLight:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.colorTemperatureLight],
                    clusters: [
                        IdentifyServer(identifyType: .lightOutput), GroupsServer(), OnOffServer(name: name),
                        LevelControlServer(name: name),
                        ColorControlServer(name: name, features: .colorTemperature),
                    ])
            ]
        case .extendedColorLight:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.extendedColorLight],
                    clusters: [
                        IdentifyServer(identifyType: .lightOutput), GroupsServer(), OnOffServer(name: name),
                        LevelControlServer(name: name),
                        ColorControlServer(name: name, features: [.hueAndSaturation, .xy, .colorTemperature]),
                    ])
            ]
        case .plug:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.onOffPlugInUnit],
                    clusters: [
                        IdentifyServer(identifyType: .none), GroupsServer(), OnOffServer(name: name),
                    ])
            ]
        case .fan:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.fan],
                    clusters: [
                        IdentifyServer(identifyType: .none), GroupsServer(), FanControlServer(name: name),
                    ])
            ]
        case .temperatureSensor:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.temperatureSensor],
                    clusters: [
                        IdentifyServer(identifyType: .none), TemperatureMeasurementServer(name: name),
                    ])
            ]
        case .humiditySensor:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.humiditySensor],
                    clusters: [
                        IdentifyServer(identifyType: .none), RelativeHumidityMeasurementServer(name: name),
                    ])
            ]
        case .contactSensor:
            [
                Endpoint(
                    id: 1, deviceTypes: [MatterDeviceTypes.contactSensor],
                    clusters: [
                        IdentifyServer(identifyType: .none), BooleanStateServer(name: name),
                    ])
            ]
        case .switchPanel:
            // One node, four buttons: a Generic Switch per endpoint (Matter Core §9.2 multi-endpoint composition), told
            // apart by their TagList: Common Number namespace (0x07), tags One (1) to Four (4).
            (1...4).map { button in
                Endpoint(
                    id: button, deviceTypes: [MatterDeviceTypes.genericSwitch],
                    clusters: [
                        IdentifyServer(identifyType: .none), SwitchServer(name: name),
                    ], tags: [SemanticTagStruct(mfgCode: .null, namespaceID: 0x07, tag: UInt8(button))])
            }
        case .bridge:
            // Matter Core §9.12 Bridge: an Aggregator whose parts are the bridged devices, each a Bridged Node.
            [
                Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.aggregator], clusters: [], parts: [2, 3]),
                Endpoint(
                    id: 2, deviceTypes: [MatterDeviceTypes.onOffLight, MatterDeviceTypes.bridgedNode],
                    clusters: [
                        BridgedDeviceBasicInformationServer(
                            productName: "Bridged Light", uniqueID: "swift-home-bridged-light"),
                        IdentifyServer(identifyType: .lightOutput), GroupsServer(), OnOffServer(name: "bridged-light"),
                    ]),
                Endpoint(
                    id: 3, deviceTypes: [MatterDeviceTypes.temperatureSensor, MatterDeviceTypes.bridgedNode],
                    clusters: [
                        BridgedDeviceBasicInformationServer(
                            productName: "Bridged Temperature Sensor", uniqueID: "swift-home-bridged-temperature"),
                        IdentifyServer(identifyType: .none),
                        TemperatureMeasurementServer(name: "bridged-temperature-sensor"),
                    ]),
            ]
        }
    }

    /// The primary device type, as the certification declaration and the DNS-SD `DT` key name it.
    public var primaryDeviceType: DeviceTypeDefinition {
        switch self {
        case .light: MatterDeviceTypes.onOffLight
        case .dimmableLight: MatterDeviceTypes.dimmableLight
        case .colorTemperatureLight: MatterDeviceTypes.colorTemperatureLight
        case .extendedColorLight: MatterDeviceTypes.extendedColorLight
        case .plug: MatterDeviceTypes.onOffPlugInUnit
        case .fan: MatterDeviceTypes.fan
        case .temperatureSensor: MatterDeviceTypes.temperatureSensor
        case .humiditySensor: MatterDeviceTypes.humiditySensor
        case .contactSensor: MatterDeviceTypes.contactSensor
        case .switchPanel: MatterDeviceTypes.genericSwitch
        case .bridge: MatterDeviceTypes.aggregator
        }
    }

    public var productName: String {
        switch self {
        case .light: "swift-home Light"
        case .dimmableLight: "swift-home Dimmable Light"
        case .colorTemperatureLight: "swift-home Color Temperature Light"
        case .extendedColorLight: "swift-home Extended Color Light"
        case .plug: "swift-home Plug"
        case .fan: "swift-home Fan"
        case .temperatureSensor: "swift-home Temperature Sensor"
        case .humiditySensor: "swift-home Humidity Sensor"
        case .contactSensor: "swift-home Contact Sensor"
        case .switchPanel: "swift-home 4-Switch Panel"
        case .bridge: "swift-home Bridge"
        }
    }
}
