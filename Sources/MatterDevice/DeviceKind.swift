import MatterDataModel

/// The kinds of device `matter-device --type` builds: each is a composition of application endpoints beside the
/// root node. A new kind adds a case and its endpoints.
public enum DeviceKind: String, CaseIterable, Sendable {
    case light

    /// The endpoints after the root node.
    public func applicationEndpoints() -> [Endpoint] {
        switch self {
        case .light:
            [Endpoint(id: 1, deviceTypes: [MatterDeviceTypes.onOffLight], clusters: [
                IdentifyServer(identifyType: .lightOutput), OnOffServer(name: "light"),
            ])]
        }
    }

    /// The primary device type, as the certification declaration and the DNS-SD `DT` key name it.
    public var primaryDeviceType: DeviceTypeDefinition {
        switch self {
        case .light: MatterDeviceTypes.onOffLight
        }
    }

    public var productName: String {
        switch self {
        case .light: "swift-home Light"
        }
    }
}
