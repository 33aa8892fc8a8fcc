import HomeHub
import MatterTLV

extension JSONValue {
    /// An attribute value as JSON: numbers, booleans, strings and null as themselves, octet strings as "0x…" hex,
    /// arrays as arrays, structures (and lists) as objects keyed by member tag ("0", "1" for context tags). Nesting is
    /// bounded by the TLV reader's depth limit.
    init(_ element: TLVElement) {
        switch element.value {
        case .bool(let value): self = .bool(value)
        case .unsigned(let value): self = .unsigned(value)
        case .signed(let value): self = .signed(value)
        case .float(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .utf8(let text): self = .string(text)
        case .bytes: self = .string(AttributeValueText.render(element))
        case .null: self = .null
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .structure(let members), .list(let members):
            self = .object(members.map { (Self.key($0.tag), JSONValue($0)) })
        }
    }

    private static func key(_ tag: TLVTag) -> String {
        switch tag {
        case .anonymous: ""
        case .context(let number): "\(number)"
        default: "\(tag)"
        }
    }
}
