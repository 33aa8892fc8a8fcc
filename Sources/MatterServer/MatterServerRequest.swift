import Foundation
import HomeEngine
import HubWire

/// One command frame of the Matter-server API (§2 of the facts): `{"message_id", "command", "args"}`. Unknown keys are
/// ignored, as python-matter-server ignores them; a missing `args` is none.
package struct MatterServerRequest: Decodable {
    let messageID: String
    let command: String?
    let args: [String: UntypedJSON]

    private enum CodingKeys: String, CodingKey {
        case messageID = "message_id"
        case command, args
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageID = try container.decode(String.self, forKey: .messageID)
        command = try container.decodeIfPresent(String.self, forKey: .command)
        args = try container.decodeIfPresent([String: UntypedJSON].self, forKey: .args) ?? [:]
    }
}
