/// A D-Bus value as the wire types it (D-Bus Specification, "Type System"), for what BlueZ sends and takes: the basic
/// types, arrays (byte arrays apart, as bytes), dictionaries, variants and structures. Containers carry their element
/// signatures, so that an empty one is written right.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`.
    case bytes([UInt8])
    /// `a<element>` (other than bytes).
    case array(element: String, [DBusValue])
    /// `a{<key><value>}`, in order.
    case dictionary(key: String, value: String, [DBusEntry])
    case variant(DBusValue)
    case structure([DBusValue])

    /// Its signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .variant: "v"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        }
    }

    /// `a{sv}` from names and values: the options and property maps BlueZ takes and gives.
    public static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: "s", value: "v", entries.map { DBusEntry(.string($0.0), .variant($0.1)) })
    }

    public var string: String? {
        switch self {
        case .string(let text), .objectPath(let text): text
        case .variant(let inner): inner.string
        default: nil
        }
    }

    public var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .variant(let inner): inner.bool
        default: nil
        }
    }

    public var bytes: [UInt8]? {
        switch self {
        case .bytes(let bytes): bytes
        case .variant(let inner): inner.bytes
        default: nil
        }
    }

    public var integer: Int? {
        switch self {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        case .variant(let inner): inner.integer
        default: nil
        }
    }

    public var strings: [String]? {
        switch self {
        case .array(_, let items): items.compactMap(\.string)
        case .variant(let inner): inner.strings
        default: nil
        }
    }

    /// A dictionary's entries by their string keys (`a{sv}`, `a{sa{sv}}`, `a{oa{…}}`).
    public var entries: [String: DBusValue]? {
        switch self {
        case .dictionary(_, _, let entries):
            Dictionary(entries.compactMap { entry in entry.key.string.map { ($0, entry.value) } }) { first, _ in first }
        case .variant(let inner): inner.entries
        default: nil
        }
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusEntry: Sendable, Hashable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

/// A D-Bus error reply, or a failure to reach the bus.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error's name (`org.bluez.Error.Failed`), or what failed locally.
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}
