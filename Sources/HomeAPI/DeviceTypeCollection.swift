import MatterDataModel

/// Every device type of a device at one moment, with their traits: `collection[OnOffLightDeviceType.self]`.
public struct DeviceTypeCollection: Sendable, Hashable {
    let contexts: [DeviceTypeContext]

    init(controller: DeviceTypeController) {
        contexts = controller.all
    }

    /// The device types' IDs, in endpoint order.
    public var deviceTypeIDs: [DeviceTypeID] { contexts.map(\.metadata.deviceTypeID) }

    /// The type on the device's first endpoint with it; nil when the device lacks it.
    public subscript<T: DeviceType>(_ type: T.Type) -> T? {
        contexts.first { $0.metadata.deviceTypeID == T.matterDeviceTypeID }.map(T.init(context:))
    }

}
