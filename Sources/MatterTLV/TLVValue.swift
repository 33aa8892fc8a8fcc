// Matter Core §A.7.1 Element Type Field: the value of a TLV element, independent of its encoded width.
public indirect enum TLVValue: Hashable, Sendable {
    case signed(Int64)
    case unsigned(UInt64)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case utf8(String)
    case bytes([UInt8])
    case null
    case structure([TLVElement])
    case array([TLVElement])
    case list([TLVElement])

    /// The element type without its payload, for error messages.
    public var kind: TLVValueKind {
        switch self {
        case .signed: .signedInteger
        case .unsigned: .unsignedInteger
        case .bool: .boolean
        case .float: .float
        case .double: .double
        case .utf8: .utf8String
        case .bytes: .octetString
        case .null: .null
        case .structure: .structure
        case .array: .array
        case .list: .list
        }
    }
}

/// The kinds of `TLVValue`, named as the spec names them.
public enum TLVValueKind: Hashable, Sendable, CustomStringConvertible {
    case signedInteger, unsignedInteger, boolean, float, double
    case utf8String, octetString, null, structure, array, list

    public var description: String {
        switch self {
        case .signedInteger: "signed integer"
        case .unsignedInteger: "unsigned integer"
        case .boolean: "boolean"
        case .float: "single precision float"
        case .double: "double precision float"
        case .utf8String: "UTF-8 string"
        case .octetString: "octet string"
        case .null: "null"
        case .structure: "structure"
        case .array: "array"
        case .list: "list"
        }
    }
}
