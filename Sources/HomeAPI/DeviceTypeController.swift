import HomeHub
import MatterDataModel

/// The device types a device has, as its endpoints declare them in their Descriptor clusters (kept by the hub's store).
/// - `contains(T.self)` says whether the device has the type;
/// - `subscribe(T.self)` emits the type's current value and then each change to it; when the device lacks the type
///   it emits nothing and finishes at once (and it finishes when the device loses the type or goes away);
/// - `get(T.self)` is the first value of `subscribe(T.self)`: nil when the device lacks the type;
/// - `getAll(of: T.self)` gives every part (endpoint) of the device that has the type, for devices made of parts.
public struct DeviceTypeController: Sendable, Hashable {
    /// The device types of every endpoint of the device, in endpoint order.
    let endpointTypes: [EndpointDeviceType]
    let connectivity: SourceConnectivity
    /// Follows this device: a query whose result is the device or nothing.
    let device: Query<HomeDevice>

    public func contains<T: DeviceType>(_ type: T.Type) -> Bool {
        endpointTypes.contains { $0.deviceType == T.matterDeviceTypeID.rawValue }
    }

    public func get<T: DeviceType>(_ type: T.Type) async throws(HomeError) -> T? {
        var updates = DeviceTypeUpdates<T>(device: device, present: contains(type)).makeAsyncIterator()
        return try await updates.next()
    }

    public func subscribe<T: DeviceType>(_ type: T.Type) -> some AsyncSequence<T, HomeError> {
        DeviceTypeUpdates<T>(device: device, present: contains(type))
    }

    /// Every device type of the device, with its traits. Not built yet: it needs the generated device types; its
    /// sequence throws `unimplemented`.
    public func subscribeAll() -> some AsyncSequence<[any DeviceType], HomeError> {
        UnimplementedSequence<[any DeviceType]>(
            message: "subscribeAll() needs the generated device types, which are not built yet; use subscribe(T.self) for a known type")
    }

    public func getAll<T: DeviceType>(of type: T.Type) async throws(HomeError) -> [T] {
        guard let current = try await device.list().first else { return [] }
        return current.types.instances(of: type)
    }

    /// The type on each endpoint that has it, in endpoint order.
    func instances<T: DeviceType>(of type: T.Type) -> [T] {
        endpointTypes.filter { $0.deviceType == T.matterDeviceTypeID.rawValue }.map { endpointType in
            T(metadata: DeviceTypeMetadata(deviceTypeID: T.matterDeviceTypeID, endpoint: endpointType.endpoint,
                                           revision: endpointType.revision, sourceConnectivity: connectivity))
        }
    }

    public static func == (lhs: DeviceTypeController, rhs: DeviceTypeController) -> Bool {
        lhs.endpointTypes == rhs.endpointTypes && lhs.connectivity == rhs.connectivity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(endpointTypes)
        hasher.combine(connectivity)
    }
}

/// One device type of one device over time: its value on the device's first endpoint with it, each time it changes.
struct DeviceTypeUpdates<T: DeviceType>: AsyncSequence {
    let device: Query<HomeDevice>
    /// Whether the device had the type when the sequence was made; without it, the sequence is over before it starts.
    let present: Bool

    func makeAsyncIterator() -> Iterator {
        Iterator(devices: QueryResults(query: device), finished: !present)
    }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = HomeError
        var devices: QueryResults<HomeDevice>
        var finished: Bool
        var last: T?

        mutating func next() async throws(HomeError) -> T? {
            while !finished, let current = try await devices.next() {
                guard let value = current.first?.types.instances(of: T.self).first else {
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

/// A sequence whose first step throws `unimplemented`: for calls whose shape exists before what they need is built.
struct UnimplementedSequence<Element>: AsyncSequence, AsyncIteratorProtocol {
    typealias Failure = HomeError
    let message: String

    func makeAsyncIterator() -> Self { self }

    mutating func next() async throws(HomeError) -> Element? {
        throw HomeError(.unimplemented, message)
    }
}
