import Foundation
import HomeEngine
import HubWire

/// One command frame of the Matter-server API (§2 of the facts): `{"message_id", "command", "args"}`. Unknown keys are
/// ignored, as python-matter-server ignores them; a missing `args` is none.
package struct MatterServerRequest: Decodable {
    let messageID: String
    let command: String?
    let args: [String: Argument]

    private enum CodingKeys: String, CodingKey {
        case messageID = "message_id"
        case command, args
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageID = try container.decode(String.self, forKey: .messageID)
        command = try container.decodeIfPresent(String.self, forKey: .command)
        args = try container.decodeIfPresent([String: Argument].self, forKey: .args) ?? [:]
    }

    /// An argument's JSON value. Integers are read from the text exactly: node IDs are 64-bit and often above 2^63.
    package indirect enum Argument: Decodable, Equatable, Sendable {
        case null
        case bool(Bool)
        case unsigned(UInt64)
        case signed(Int64)
        case number(Double)
        case string(String)
        case array([Argument])
        case object([String: Argument])

        package init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let unsigned = try? value.decode(UInt64.self) {
                self = .unsigned(unsigned)
            } else if let signed = try? value.decode(Int64.self) {
                self = .signed(signed)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else if let string = try? value.decode(String.self) {
                self = .string(string)
            } else if let array = try? value.decode([Argument].self) {
                self = .array(array)
            } else {
                self = .object(try value.decode([String: Argument].self))
            }
        }

        var isNull: Bool { self == .null }
        var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
        var unsigned: UInt64? { if case .unsigned(let value) = self { value } else { nil } }
        var string: String? { if case .string(let value) = self { value } else { nil } }
    }
}
