import Foundation
import HomeRecords
import MatterTLV

extension JSONValue {
    /// How octet strings are written.
    public enum OctetStrings: Sendable {
        /// "0x…", for people.
        case hex
        /// Standard base64, as python-matter-server's clients read attribute values.
        case base64
    }

    /// An attribute value as JSON: numbers, booleans, strings and null as themselves, octet strings as `octetStrings`
    /// says, arrays as arrays, structures (and lists) as objects keyed by member tag ("0", "1" for context tags).
    /// Nesting is bounded by the TLV reader's depth limit.
    public init(_ element: TLVElement, octetStrings: OctetStrings = .hex) {
        switch element.value {
        case .bool(let value): self = .bool(value)
        case .unsigned(let value): self = .unsigned(value)
        case .signed(let value): self = .signed(value)
        case .float(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .utf8(let text): self = .string(text)
        case .bytes(let bytes):
            switch octetStrings {
            case .hex: self = .string(AttributeValueText.render(element))
            case .base64: self = .string(Data(bytes).base64EncodedString())
            }
        case .null: self = .null
        case .array(let items): self = .array(items.map { JSONValue($0, octetStrings: octetStrings) })
        case .structure(let members), .list(let members):
            self = .object(members.map { (Self.key($0.tag), JSONValue($0, octetStrings: octetStrings)) })
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
