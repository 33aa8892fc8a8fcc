import MatterDataModel
import MatterInteraction
import MatterTLV

/// Matter Core §7.14 / §10.6.9: one event a node reported, as the hub keeps it: where it happened, its number (unique
/// and increasing on the node, so each is delivered once), its priority and when, and its fields as reported.
public struct NodeEvent: Hashable, Sendable, Codable {
    // Matter Core §7.14.2.1: an event's time, absolute; a delta on the wire is resolved against the event before it.
    public enum Timestamp: Hashable, Sendable, Codable {
        /// Milliseconds since the Unix epoch, from a node that knows the time of day.
        case epochMilliseconds(UInt64)
        /// Milliseconds since the node booted.
        case systemMilliseconds(UInt64)
    }

    public let endpoint: UInt16
    public let cluster: ClusterID
    public let event: EventID
    public let number: UInt64
    public let priority: EventPriority
    public let timestamp: Timestamp?
    /// The fields, anonymous-tagged; nil for an event without fields.
    public let data: TLVElement?

    public init(
        endpoint: UInt16, cluster: ClusterID, event: EventID, number: UInt64, priority: EventPriority,
        timestamp: Timestamp?, data: TLVElement?
    ) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.event = event
        self.number = number
        self.priority = priority
        self.timestamp = timestamp
        self.data = data
    }

    /// The events of one report, in order, with delta timestamps resolved; records with a wildcard path (which a
    /// node must not send) and statuses are left out.
    package static func events(of reports: [EventReportIB]) -> [NodeEvent] {
        var previous: Timestamp?
        var events: [NodeEvent] = []
        for case .data(let record) in reports {
            let timestamp: Timestamp? =
                switch (record.timestamp, previous) {
                case (.epochMilliseconds(let value)?, _): .epochMilliseconds(value)
                case (.systemMilliseconds(let value)?, _): .systemMilliseconds(value)
                case (.deltaEpochMilliseconds(let delta)?, .epochMilliseconds(let base)?):
                    .epochMilliseconds(base &+ delta)
                case (.deltaSystemMilliseconds(let delta)?, .systemMilliseconds(let base)?):
                    .systemMilliseconds(base &+ delta)
                default: nil
                }
            previous = timestamp ?? previous
            guard let endpoint = record.path.endpoint, let cluster = record.path.cluster, let event = record.path.event
            else { continue }
            events.append(
                NodeEvent(
                    endpoint: endpoint, cluster: ClusterID(rawValue: cluster), event: EventID(rawValue: event),
                    number: record.eventNumber, priority: EventPriority(rawValue: record.priority) ?? .info,
                    timestamp: timestamp, data: record.data))
        }
        return events
    }
}
