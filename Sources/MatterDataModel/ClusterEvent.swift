import MatterTLV

// Matter Core §7.14 Event: an event's fields and how it is reported.
public protocol ClusterEvent: Hashable, Sendable, TLVCodable {
    associatedtype Cluster: ClusterDefinition
    static var id: EventID { get }
    static var name: String { get }
    static var priority: EventPriority { get }
    static var readPrivilege: Privilege { get }
    /// Fabric-sensitive events are only reported to the fabric they concern.
    static var isFabricSensitive: Bool { get }
}

extension ClusterEvent {
    public static var readPrivilege: Privilege { .view }
    public static var isFabricSensitive: Bool { false }
}

// Matter Core §7.14.1 Priority: which events a node keeps longest.
public enum EventPriority: UInt8, Hashable, Comparable, Sendable, Codable {
    case debug = 0
    case info = 1
    case critical = 2

    public static func < (lhs: EventPriority, rhs: EventPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
