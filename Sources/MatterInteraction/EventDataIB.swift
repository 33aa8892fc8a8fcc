import MatterTLV

// Matter Core §10.6.9 EventDataIB: one event record. Exactly one timestamp form is present on the wire.
public struct EventDataIB: Hashable, Sendable, TLVCodable {
    // Matter Core §10.6.9 timestamps: absolute (epoch or system, in ms) or a delta from the previous event's.
    public enum Timestamp: Hashable, Sendable {
        case epochMilliseconds(UInt64)
        case systemMilliseconds(UInt64)
        case deltaEpochMilliseconds(UInt64)
        case deltaSystemMilliseconds(UInt64)
    }

    public var path: EventPathIB
    public var eventNumber: UInt64
    /// 0 debug, 1 info, 2 critical.
    public var priority: UInt8
    public var timestamp: Timestamp?
    /// The event's fields, anonymous-tagged; absent for an event without fields.
    public var data: TLVElement?

    public init(path: EventPathIB, eventNumber: UInt64, priority: UInt8, timestamp: Timestamp?, data: TLVElement?) {
        self.path = path
        self.eventNumber = eventNumber
        self.priority = priority
        self.timestamp = timestamp
        self.data = data
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, path)
            TLVElement.context(1, eventNumber)
            TLVElement.context(2, priority)
            switch timestamp {
            case .epochMilliseconds(let value): TLVElement.context(3, value)
            case .systemMilliseconds(let value): TLVElement.context(4, value)
            case .deltaEpochMilliseconds(let value): TLVElement.context(5, value)
            case .deltaSystemMilliseconds(let value): TLVElement.context(6, value)
            case nil: TLVElement?.none
            }
            TLVElement.context(7, data: data)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        let timestamp: Timestamp? =
            if let value = try fields.optional(3, as: UInt64.self) {
                .epochMilliseconds(value)
            } else if let value = try fields.optional(4, as: UInt64.self) {
                .systemMilliseconds(value)
            } else if let value = try fields.optional(5, as: UInt64.self) {
                .deltaEpochMilliseconds(value)
            } else if let value = try fields.optional(6, as: UInt64.self) { .deltaSystemMilliseconds(value) } else {
                nil
            }
        self.init(
            path: try fields.required(0), eventNumber: try fields.required(1), priority: try fields.required(2),
            timestamp: timestamp, data: fields.optionalData(7)
        )
    }
}
