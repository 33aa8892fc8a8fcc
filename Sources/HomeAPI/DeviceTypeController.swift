import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction

/// The device types a device has, as its endpoints declare them in their Descriptor clusters (kept by the hub's store),
/// with their traits as the device's live connection last reported them.
/// - `contains(T.self)` says whether the device has the type;
/// - `subscribe(T.self)` starts following the device live, emits the type's current value and then each change to it
///   (an attribute of its endpoint, its connectivity); when the device lacks the type it emits nothing and finishes at
///   once (and it finishes when the device loses the type or goes away);
/// - `get(T.self)` is the first value of `subscribe(T.self)`: nil when the device lacks the type, or when its state cannot be
///   had (the hub unavailable, the device gone); `subscribe` is where a caller who wants the reason gets the `HomeError`;
/// - `subscribeAll()` emits every device type of the device together, as a `DeviceTypeCollection`, on each change;
/// - `getAll(of: T.self)` gives every part (endpoint) of the device that has the type, in endpoint order, for devices made
///   of parts; each part's `metadata.semanticTags` tell them apart.
public struct DeviceTypeController: Sendable, Hashable {
    /// The device types of every endpoint of the device, in endpoint order.
    let endpointTypes: [EndpointDeviceType]
    /// The node's root endpoint types (Root Node: Basic Information, General Diagnostics…) when the device is not the
    /// root endpoint itself; never its primary type.
    let rootEndpointTypes: [EndpointDeviceType]
    /// Each endpoint's semantic tags, as the store keeps them.
    let endpointTags: [UInt16: [SemanticTag]]
    let nodeID: UInt64
    /// The node's connectivity when this value was made: `.unknown` before its live connection started.
    let connectivity: SourceConnectivity
    let context: HomeContext
    /// Follows this device: a query whose result is the device or nothing.
    let device: Query<HomeDevice>

    public func contains<T: DeviceType>(_ type: T.Type) -> Bool {
        allTypes.contains { $0.deviceType == T.matterDeviceTypeID.rawValue }
    }

    private var allTypes: [EndpointDeviceType] { endpointTypes + rootEndpointTypes }

    public func get<T: DeviceType>(_ type: T.Type) async -> T? {
        var updates = DeviceUpdates(controller: self, present: contains(type)) { $0.instances(of: T.self).first }
            .makeAsyncIterator()
        return (try? await updates.next()) ?? nil
    }

    public func subscribe<T: DeviceType>(_ type: T.Type) -> some AsyncSequence<T, HomeError> {
        DeviceUpdates(controller: self, present: contains(type)) { $0.instances(of: T.self).first }
    }

    public func subscribeAll() -> some AsyncSequence<DeviceTypeCollection, HomeError> {
        DeviceUpdates(controller: self, present: true) { DeviceTypeCollection(controller: $0) }
    }

    public func getAll<T: DeviceType>(of type: T.Type) async throws(HomeError) -> [T] {
        guard contains(type) else { return [] }
        // As `get` does: the parts' traits come from the node's live connection; a node that cannot be reached still has
        // its parts, reported offline.
        await context.follow(nodeID)
        guard let current = try await device.list().first else { return [] }
        return current.types.instances(of: type)
    }

    /// The type on each endpoint that has it, in endpoint order.
    func instances<T: DeviceType>(of type: T.Type) -> [T] {
        contexts(of: T.matterDeviceTypeID.rawValue).map(T.init(context:))
    }

    /// Every device type of every endpoint, each with its endpoint's traits as the home model holds them now.
    var all: [DeviceTypeContext] {
        let cache = context.model.view(of: nodeID)?.cache ?? AttributeCache()
        return allTypes.map { context(of: $0, cache: cache) }
    }

    func contexts(of deviceType: UInt32) -> [DeviceTypeContext] {
        let cache = context.model.view(of: nodeID)?.cache ?? AttributeCache()
        return allTypes.filter { $0.deviceType == deviceType }.map { context(of: $0, cache: cache) }
    }

    private func context(of endpointType: EndpointDeviceType, cache: AttributeCache) -> DeviceTypeContext {
        let isPrimary = endpointTypes.first { $0.endpoint == endpointType.endpoint } == endpointType
        let metadata = DeviceTypeMetadata(
            deviceTypeID: DeviceTypeID(rawValue: endpointType.deviceType), endpoint: endpointType.endpoint,
            revision: endpointType.revision, isPrimaryType: isPrimary, sourceConnectivity: connectivity,
            semanticTags: endpointTags[endpointType.endpoint] ?? [])
        let snapshot = EndpointSnapshot(
            nodeID: nodeID, endpoint: endpointType.endpoint, cache: cache,
            connectivity: connectivity, context: context)
        return DeviceTypeContext(metadata: metadata, traits: TraitCollection(snapshot: snapshot))
    }

    /// Equal when the device types, their tags and connectivity are: attribute values are the device types' own
    /// business, so a query of devices emits when connectivity or device types change, not on every report.
    public static func == (lhs: DeviceTypeController, rhs: DeviceTypeController) -> Bool {
        lhs.endpointTypes == rhs.endpointTypes && lhs.rootEndpointTypes == rhs.rootEndpointTypes
            && lhs.endpointTags == rhs.endpointTags
            && lhs.connectivity == rhs.connectivity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(endpointTypes)
        hasher.combine(rootEndpointTypes)
        hasher.combine(endpointTags)
        hasher.combine(connectivity)
    }
}

/// Something derived from one device over time (one of its device types, all of them): the current value once the
/// device's live connection has had its first try, then each different value; it ends when the value is gone.
struct DeviceUpdates<Value: Hashable & Sendable>: AsyncSequence {
    let controller: DeviceTypeController
    /// Whether the device had what is followed when the sequence was made; without it, the sequence is over before it starts.
    let present: Bool
    let derive: @Sendable (DeviceTypeController) -> Value?

    func makeAsyncIterator() -> Iterator {
        Iterator(
            controller: controller, devices: QueryResults(query: controller.device), derive: derive, finished: !present)
    }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = HomeError
        let controller: DeviceTypeController
        var devices: QueryResults<HomeDevice>
        let derive: @Sendable (DeviceTypeController) -> Value?
        var finished: Bool
        var started = false
        var last: Value?

        mutating func next() async throws(HomeError) -> Value? {
            if !finished && !started {
                started = true
                // A node that cannot be reached still has its device types: they report it offline.
                await controller.context.follow(controller.nodeID)
            }
            while !finished, let current = try await devices.next() {
                guard let value = current.first.flatMap({ derive($0.types) }) else {
                    finished = true
                    return nil
                }
                if value != last {
                    last = value
                    return value
                }
            }
            return nil
        }
    }
}
