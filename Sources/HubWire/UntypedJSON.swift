import Foundation

/// A JSON value decoded without a type: a hub operation's arguments or reply inside a frame, decoded into the
/// operation's own types once its name has said which (`HubProtocol`); a Matter-server command's arguments. Integers
/// are read from the text exactly (node IDs are 64-bit, often above 2^63), so a value converted back and forth reads
/// the same.
public indirect enum UntypedJSON: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case unsigned(UInt64)
    case signed(Int64)
    case number(Double)
    case string(String)
    case array([UntypedJSON])
    case object([String: UntypedJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let unsigned = try? container.decode(UInt64.self) {
            self = .unsigned(unsigned)
        } else if let signed = try? container.decode(Int64.self) {
            self = .signed(signed)
        } else if let double = try? container.decode(Double.self) {
            self = .number(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([UntypedJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: UntypedJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .signed(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// A value's JSON, as its `Encodable` conformance writes it.
    public init(encoding value: some Encodable) throws {
        // Wrapped in an object: a reply may be a bare string or number, which not every JSON reader takes at the top.
        let data = try JSONEncoder().encode(Wrapped(value: value))
        self = try JSONDecoder().decode(Wrapped<UntypedJSON>.self, from: data).value
    }

    /// This JSON read as `type`: a `DecodingError` names the member at fault in its coding path.
    public func decode<Value: Decodable>(as type: Value.Type) throws -> Value {
        try UntypedJSONDecoder.decode(type, from: self, at: [])
    }

    public var isNull: Bool { self == .null }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var unsigned: UInt64? { if case .unsigned(let value) = self { value } else { nil } }
    public var string: String? { if case .string(let value) = self { value } else { nil } }
}

/// A value as the one member of an object.
private struct Wrapped<Value> {
    let value: Value
}

extension Wrapped: Encodable where Value: Encodable {}
extension Wrapped: Decodable where Value: Decodable {}
