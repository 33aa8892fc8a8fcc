/// How a command's or struct's field is written in TLV (Matter Core §7.18 data types), by its tag and its name in the
/// data model (the IDL's spelling, which connectedhomeip's Python codegen and python-matter-server's clients use):
/// what run-time encoding needs, where the typed Swift structs are not at hand (the Matter-server API's name-keyed
/// payloads).
public struct FieldInfo: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case bool
        /// Unsigned integers, enums and bitmaps.
        case unsigned
        case signed
        case float
        case double
        case utf8
        case bytes
        case structure([FieldInfo])
        case list(Kind)
    }

    public let tag: UInt8
    public let name: String
    public let kind: Kind
    public let isNullable: Bool
    public let isOptional: Bool
    /// What an integer field (or each integer of a list) may hold; nil for any value of its TLV type.
    public let limit: IntegerLimit?

    public init(
        _ tag: UInt8, _ name: String, _ kind: Kind, nullable: Bool = false, optional: Bool = false,
        limit: IntegerLimit? = nil
    ) {
        self.tag = tag
        self.name = name
        self.kind = kind
        isNullable = nullable
        isOptional = optional
        self.limit = limit
    }
}

/// What an integer of the data model may hold beyond its TLV type (Matter Core §7.18.2): its width, the range the
/// specification gives its type, an enum's values or a bitmap's bits.
public enum IntegerLimit: Hashable, Sendable {
    /// An unsigned integer of this many bits (`int24u`: 24).
    case unsigned(bits: Int)
    /// A two's-complement integer of this many bits.
    case signed(bits: Int)
    /// An unsigned integer within this range (`percent`: 0 to 100).
    case range(ClosedRange<UInt64>)
    /// One of an enum's values, each with its name; a value the data model does not know may be a newer
    /// specification's, so only a caller that wants known values refuses it.
    case enumeration(bits: Int, names: [UInt64: String])
    /// A bitmap of this many bits, the known bits in `mask`.
    case bitmap(bits: Int, mask: UInt64)

    /// The values of a generated enum, by number.
    public static func enumeration<Enum: ClusterEnum>(_ type: Enum.Type) -> Self {
        .enumeration(
            bits: Enum.RawValue.bitWidth,
            names: Dictionary(uniqueKeysWithValues: Enum.names.map { (UInt64($0.key), $0.value) }))
    }

    /// Whether `value` fits: its width or range always; an enum's known values and a bitmap's known bits only when
    /// `knownValuesOnly`.
    public func admits(unsigned value: UInt64, knownValuesOnly: Bool) -> Bool {
        switch self {
        case .unsigned(let bits): bits >= 64 || value < 1 << UInt64(bits)
        case .signed(let bits): bits >= 64 ? value <= UInt64(Int64.max) : value < 1 << UInt64(bits - 1)
        case .range(let range): range.contains(value)
        case .enumeration(let bits, let names):
            (bits >= 64 || value < 1 << UInt64(bits)) && (!knownValuesOnly || names[value] != nil)
        case .bitmap(let bits, let mask):
            (bits >= 64 || value < 1 << UInt64(bits)) && (!knownValuesOnly || value & ~mask == 0)
        }
    }

    /// Whether a negative `value` fits: only a signed integer wide enough.
    public func admits(signed value: Int64) -> Bool {
        guard value < 0 else { return admits(unsigned: UInt64(value), knownValuesOnly: false) }
        guard case .signed(let bits) = self else { return false }
        return bits >= 64 || value >= -(1 << Int64(bits - 1))
    }

    /// What the field takes, for a message: "an integer from 0 to 255", "one of Up (0), Down (1)".
    public var description: String {
        switch self {
        case .unsigned(let bits):
            "an integer from 0 to \(bits >= 64 ? UInt64.max : (1 << UInt64(bits)) - 1)"
        case .signed(let bits):
            bits >= 64
                ? "an integer from \(Int64.min) to \(Int64.max)"
                : "an integer from \(-(1 << Int64(bits - 1))) to \((1 << Int64(bits - 1)) - 1)"
        case .range(let range): "an integer from \(range.lowerBound) to \(range.upperBound)"
        case .enumeration(_, let names):
            "one of " + names.sorted { $0.key < $1.key }.map { "\($0.value) (\($0.key))" }.joined(separator: ", ")
        case .bitmap(_, let mask):
            "a bitmap of bits 0x\(String(mask, radix: 16, uppercase: true))"
        }
    }
}

/// How a writable attribute's value is written in TLV (its struct fields by tag, as attribute values are keyed), and
/// whether the specification requires the write to be timed (Matter Core §8.7.2).
public struct WritableAttribute: Hashable, Sendable {
    public let kind: FieldInfo.Kind
    public let isNullable: Bool
    public let requiresTimedWrite: Bool
    /// What an integer value (or each integer of a list) may hold; nil for any value of its TLV type.
    public let limit: IntegerLimit?
    /// Matter Core §6.6.2.1: the privilege a write takes (an ACL entry's, the fabric's ACL itself: administer).
    public let privilege: Privilege

    public init(
        _ kind: FieldInfo.Kind, nullable: Bool = false, timed: Bool = false, privilege: Privilege = .operate,
        limit: IntegerLimit? = nil
    ) {
        self.kind = kind
        isNullable = nullable
        requiresTimedWrite = timed
        self.privilege = privilege
        self.limit = limit
    }
}
