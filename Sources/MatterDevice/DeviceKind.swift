import MatterDataModel

/// The kinds of device `matter-device --type` builds: each is a composition of application endpoints beside the
/// root node. A new kind adds a case and its endpoints.
public enum DeviceKind: String, CaseIterable, Sendable {
    case light
    case dimmableLight = "dimmable-light"
    case colorTemperatureLight = "color-temperature-light"
    case extendedColorLight = "extended-color-light"
    case plug
    case fan

    /// The endpoints after the root node.
    public func applicationEndpoints() -> [Endpoint] {
        let name = rawValue
        return switch self {
        case .light:
            [Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.onOffLight], clusters: [
                IdentifyServer(identifyType: .lightOutput), OnOffServer(name: name),
            ])]
        case .dimmableLight:
            [Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.dimmableLight], clusters: [
                IdentifyServer(identifyType: .lightOutput), OnOffServer(name: name), LevelControlServer(name: name),
            ])]
        case .colorTemperatureLight:
            [Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.colorTemperatureLight], clusters: [
                IdentifyServer(identifyType: .lightOutput), OnOffServer(name: name), LevelControlServer(name: name),
                ColorControlServer(name: name, features: .colorTemperature),
            ])]
        case .extendedColorLight:
            [Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.extendedColorLight], clusters: [
                IdentifyServer(identifyType: .lightOutput), OnOffServer(name: name), LevelControlServer(name: name),
                ColorControlServer(name: name, features: [.hueAndSaturation, .xy, .colorTemperature]),
            ])]
        case .plug:
            [Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.onOffPlugInUnit], clusters: [
                IdentifyServer(identifyType: .none), OnOffServer(name: name),
            ])]
        case .fan:
            [Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.fan], clusters: [
                IdentifyServer(identifyType: .none), FanControlServer(name: name),
            ])]
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
        }
    }
}
