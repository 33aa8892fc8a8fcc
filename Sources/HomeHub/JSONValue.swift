import Foundation

/// A JSON document built by hand, so keys keep a stable order, absent values print as `null` and 64-bit integers stay
/// exact: what the `home` tool prints and the Matter-server API sends.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case unsigned(UInt64)
    case signed(Int64)
    /// A measurement, printed with millisecond precision.
    case seconds(Double)
    /// A floating-point value at full precision; JSON has no NaN or infinity, so those print as `null`.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered == rhs.rendered }

    /// An object's member named `key`; nil for a missing one, or when this is no object.
    public func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var rendered: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .unsigned(let value): String(value)
        case .signed(let value): String(value)
        case .seconds(let value): String(format: "%.3f", value)
        case .number(let value): value.isFinite ? "\(value)" : "null"
        case .string(let text): Self.quote(text)
        case .array(let items): "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Self.quote($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
        }
    }

    private static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
