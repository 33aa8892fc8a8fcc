import Foundation
import HomeRecords

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
        var output = ""
        write(into: &output)
        return output
    }

    /// Appends the text to `output`: one buffer for the whole document, which the Matter-server API's answers for
    /// a thousand nodes (megabytes) need, where concatenating each level's text would copy it again at every level.
    public func write(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .unsigned(let value): output += String(value)
        case .signed(let value): output += String(value)
        case .seconds(let value): output += String(format: "%.3f", value)
        case .number(let value): output += value.isFinite ? "\(value)" : "null"
        case .string(let text): Self.quote(text, into: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.quote(member.0, into: &output)
                output += ":"
                member.1.write(into: &output)
            }
            output += "}"
        }
    }

    private static func quote(_ text: String, into output: inout String) {
        output += "\""
        // Most text needs no escape: it goes in whole.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += text
            output += "\""
            return
        }
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
        output += "\""
    }
}
