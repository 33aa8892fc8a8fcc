import Foundation
import HomeRecords
import MatterTLV

/// An attribute value as one line for people: `true`, `254`, `"CircuitMatter"`, `0x0A1B`, `null`, `[1, 2]`,
/// `{0: 1, 1: "x"}` (structure members by context tag). Nesting is bounded by the TLV reader's depth limit.
public enum AttributeValueText {
    public static func render(_ element: TLVElement) -> String {
        switch element.value {
        case .bool(let value): "\(value)"
        case .unsigned(let value): "\(value)"
        case .signed(let value): "\(value)"
        case .float(let value): "\(value)"
        case .double(let value): "\(value)"
        case .utf8(let text):
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .bytes(let bytes):
            bytes.isEmpty
                ? "0x" : "0x" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        case .null: "null"
        case .array(let items): "[" + items.map(render).joined(separator: ", ") + "]"
        case .structure(let members), .list(let members): "{" + members.map(member).joined(separator: ", ") + "}"
        }
    }

    private static func member(_ element: TLVElement) -> String {
        switch element.tag {
        case .context(let tag): "\(tag): " + render(element)
        case .anonymous: render(element)
        default: "\(element.tag): " + render(element)
        }
    }
}
