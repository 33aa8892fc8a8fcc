import MatterDataModel
import MatterNode

/// A bridged device a bridge added while running (Matter Core §9.12): an On/Off Light on its own endpoint, a part
/// of the Aggregator, known by the NodeLabel the bridge gave it. Kept in the device's state file.
public struct BridgedDevice: Codable, Hashable, Sendable {
    public var endpoint: UInt16
    public var label: String

    public init(endpoint: UInt16, label: String) {
        self.endpoint = endpoint
        self.label = label
    }

    /// Its endpoint: On/Off Light and Bridged Node, with Bridged Device Basic Information (§9.13) naming it, unique
    /// on this bridge by the bridge's own unique ID and the endpoint, which is never reused.
    func composed(bridgeUniqueID: String) -> Endpoint {
        Endpoint(
            id: endpoint, deviceTypes: [MatterDeviceTypes.onOffLight, MatterDeviceTypes.bridgedNode],
            clusters: [
                BridgedDeviceBasicInformationServer(
                    productName: "Bridged Light", uniqueID: "\(bridgeUniqueID)-\(endpoint)", nodeLabel: label),
                IdentifyServer(identifyType: .lightOutput), GroupsServer(), OnOffServer(name: label),
            ])
    }
}
