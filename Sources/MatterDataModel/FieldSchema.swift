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

    public init(_ tag: UInt8, _ name: String, _ kind: Kind, nullable: Bool = false, optional: Bool = false) {
        self.tag = tag
        self.name = name
        self.kind = kind
        isNullable = nullable
        isOptional = optional
    }
}

/// How a writable attribute's value is written in TLV (its struct fields by tag, as attribute values are keyed), and
/// whether the specification requires the write to be timed (Matter Core §8.7.2).
public struct WritableAttribute: Hashable, Sendable {
    public let kind: FieldInfo.Kind
    public let isNullable: Bool
    public let requiresTimedWrite: Bool

    public init(_ kind: FieldInfo.Kind, nullable: Bool = false, timed: Bool = false) {
        self.kind = kind
        isNullable = nullable
        requiresTimedWrite = timed
    }
}
