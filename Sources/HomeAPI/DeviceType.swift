import MatterDataModel

/// A Matter device type a device has on one endpoint (On/Off Light, Contact Sensor…); the generated device types
/// (`OnOffLightDeviceType`…) add `matterTraits`, an optional property per standard trait. Every trait of a device type
/// is its own endpoint's: a device with two types that share a cluster has one trait of it in each.
public protocol DeviceType: Sendable, Hashable {
    /// Matter Device Library: the device type's ID (On/Off Light is 0x0100).
    static var matterDeviceTypeID: DeviceTypeID { get }
    var context: DeviceTypeContext { get }
    init(context: DeviceTypeContext)
}

extension DeviceType {
    public var metadata: DeviceTypeMetadata { context.metadata }
    /// Any trait of the endpoint, standard or vendor-specific: `traits[OnOffTrait.self]`.
    public var traits: TraitCollection { context.traits }
}

/// What a device type is made from: where it lives and its endpoint's traits.
public struct DeviceTypeContext: Sendable, Hashable {
    public let metadata: DeviceTypeMetadata
    public let traits: TraitCollection
}

/// What the hub knows of one device type on one endpoint.
public struct DeviceTypeMetadata: Sendable, Hashable {
    public let deviceTypeID: DeviceTypeID
    // Matter Core §9.5.5.1 Descriptor DeviceTypeStruct: the endpoint and the revision the device declares.
    public let endpoint: UInt16
    public let revision: UInt16
    /// Whether this is the endpoint's first declared device type (a dimmable light that is also a speaker lists the
    /// light first).
    public let isPrimaryType: Bool
    /// `.unknown` until the hub follows the device live (its first subscription or command).
    public let sourceConnectivity: SourceConnectivity
    /// The endpoint's semantic tags (Descriptor TagList), in the device's order: what tells apart the parts of a
    /// multipart device that share this type ("Number 1", "Left"). Empty when the endpoint declares none.
    public let semanticTags: [SemanticTag]

    public init(
        deviceTypeID: DeviceTypeID, endpoint: UInt16, revision: UInt16, isPrimaryType: Bool,
        sourceConnectivity: SourceConnectivity,
        semanticTags: [SemanticTag] = []
    ) {
        self.deviceTypeID = deviceTypeID
        self.endpoint = endpoint
        self.revision = revision
        self.isPrimaryType = isPrimaryType
        self.sourceConnectivity = sourceConnectivity
        self.semanticTags = semanticTags
    }
}
