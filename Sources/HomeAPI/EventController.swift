import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterTLV

/// The events of a device (its endpoint, or every part of a multipart device), as its node reports them to the hub
/// from the moment it is followed: `device.events.subscribe(SwitchTrait.InitialPressEvent.self)`, every event of one
/// trait (`subscribe(allOf: SwitchTrait.self)`), or all of them (`subscribeAll()`). Subscribing starts following the
/// device live, as `types.subscribe` does. Each event arrives once, in the node's order (its event numbers), from the
/// moment the sequence is iterated: none from before, even to a subscriber that fell behind and is caught up from the
/// node's recent events. A sequence ends when the device leaves the home or its task is cancelled, and fails as a
/// live query does (`unavailable` when the hub it is attached to went away). A device that reports no events
/// (CircuitMatter) yields none, without error.
public struct EventController: Sendable {
    let nodeID: UInt64
    /// The device's endpoints.
    let endpoints: Set<UInt16>
    let context: HomeContext

    /// Events of one type, decoded. One that does not decode as its type is logged once and skipped.
    public func subscribe<Event: ClusterEvent>(_ type: Event.Type) -> some AsyncSequence<DeviceEvent<Event>, HomeError>
    {
        DeviceEvents(controller: self) { [nodeID] event in
            guard event.cluster == Event.Cluster.id, event.event == Event.id else { return nil }
            return DeviceEvent<Event>(event, of: nodeID)
        }
    }

    /// Every event of one trait's cluster.
    public func subscribe<T: Trait>(allOf trait: T.Type) -> some AsyncSequence<AnyDeviceEvent, HomeError> {
        DeviceEvents(controller: self) { event in
            event.cluster == T.Cluster.id ? AnyDeviceEvent(event) : nil
        }
    }

    /// Every event of the device.
    public func subscribeAll() -> some AsyncSequence<AnyDeviceEvent, HomeError> {
        DeviceEvents(controller: self) { AnyDeviceEvent($0) }
    }
}

/// When an event happened, as its node tells it.
public enum EventTimestamp: Sendable, Hashable {
    /// Milliseconds since the Unix epoch, from a node that knows the time of day.
    case epochMilliseconds(UInt64)
    /// Milliseconds since the node booted.
    case systemMilliseconds(UInt64)

    init(_ timestamp: NodeEvent.Timestamp) {
        switch timestamp {
        case .epochMilliseconds(let value): self = .epochMilliseconds(value)
        case .systemMilliseconds(let value): self = .systemMilliseconds(value)
        }
    }
}

/// One event of a known type, with where and when it happened.
public struct DeviceEvent<Event: ClusterEvent>: Sendable, Hashable {
    public let event: Event
    public let endpoint: UInt16
    /// Unique and increasing on the node.
    public let number: UInt64
    public let priority: EventPriority
    public let timestamp: EventTimestamp?

    /// nil when the event's fields do not decode as `Event` (logged once).
    init?(_ event: NodeEvent, of nodeID: UInt64) {
        do {
            self.event = try Event(tlv: event.data ?? TLVElement(.structure([])))
        } catch {
            MalformedValueLog.shared.report(
                HomeError(
                    .dataLoss,
                    "node \(HubEngine.nodeDeviceID(nodeID)) endpoint \(event.endpoint) \(EventText.render(event)): the "
                        + "reported fields do not decode as \(Event.name): \(error)"))
            return nil
        }
        endpoint = event.endpoint
        number = event.number
        priority = event.priority
        timestamp = event.timestamp.map(EventTimestamp.init)
    }
}

/// One event of any type: its names, where and when it happened, and its fields, decoded on request.
public struct AnyDeviceEvent: Sendable, Hashable, CustomStringConvertible {
    public let cluster: ClusterID
    public let event: EventID
    public let endpoint: UInt16
    public let number: UInt64
    public let priority: EventPriority
    public let timestamp: EventTimestamp?
    private let record: NodeEvent

    init(_ record: NodeEvent) {
        cluster = record.cluster
        event = record.event
        endpoint = record.endpoint
        number = record.number
        priority = record.priority
        timestamp = record.timestamp.map(EventTimestamp.init)
        self.record = record
    }

    /// The event as `Event`; nil when it is another event or its fields do not decode as `Event`.
    public func decoded<Event: ClusterEvent>(as type: Event.Type) -> Event? {
        guard cluster == Event.Cluster.id, event == Event.id else { return nil }
        return try? Event(tlv: record.data ?? TLVElement(.structure([])))
    }

    /// "Switch.InitialPress  newPosition=1".
    public var description: String { EventText.render(record) }
}

/// A device's events over time, as `derive` keeps them; ends when the device leaves the home.
struct DeviceEvents<Value: Sendable>: AsyncSequence {
    let controller: EventController
    let derive: @Sendable (NodeEvent) -> Value?

    func makeAsyncIterator() -> Iterator {
        Iterator(controller: controller, derive: derive)
    }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = HomeError
        let controller: EventController
        let derive: @Sendable (NodeEvent) -> Value?
        /// The node's changes from the moment the iterator is made: what happens later is delivered.
        var changes: HomeModel.Changes.Iterator
        var followed = false
        var pending: [NodeEvent] = []
        /// The number of the last event delivered, or heard of before the subscription began: nothing at or before
        /// it is delivered (again). Caught up after a gap, the node's recent events hold earlier ones too.
        var last: UInt64?

        init(controller: EventController, derive: @escaping @Sendable (NodeEvent) -> Value?) {
            self.controller = controller
            self.derive = derive
            let model = controller.context.model
            // Read before listening begins: an event published in between came before the subscription too.
            last = model.snapshot.recentEvents[controller.nodeID]?.map(\.number).max()
            changes = model.changes(.node(controller.nodeID)).makeAsyncIterator()
        }

        mutating func next() async throws(HomeError) -> Value? {
            let model = controller.context.model
            if !followed {
                followed = true
                // A node that cannot be reached is followed anyway: its events come once it answers.
                await controller.context.follow(controller.nodeID)
            }
            while true {
                while !pending.isEmpty {
                    let event = pending.removeFirst()
                    guard last.map({ event.number > $0 }) ?? true else { continue }
                    last = event.number
                    if let value = derive(event) { return value }
                }
                guard !Task.isCancelled, let update = await changes.next() else { return nil }
                // A hub that went away, or a store this build cannot read: the sequence fails, as a query does.
                try controller.context.requireCurrentModel()
                // The device left the home (its node, or its endpoint of a bridge).
                let present = Set(model.devices(of: controller.nodeID)?.map(\.id.endpoint) ?? [])
                guard !present.isDisjoint(with: controller.endpoints) else { return nil }
                switch update {
                case .changes(let changes):
                    for case .event(_, let event) in changes where controller.endpoints.contains(event.endpoint) {
                        pending.append(event)
                    }
                case .fellBehind:
                    // What was dropped is caught up from the node's recent events, as far as they reach.
                    pending = (model.snapshot.recentEvents[controller.nodeID] ?? []).filter {
                        controller.endpoints.contains($0.endpoint)
                    }
                }
            }
        }
    }
}
