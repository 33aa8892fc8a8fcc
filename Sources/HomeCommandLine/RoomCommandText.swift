import Foundation
import HomeAPI
import HomeEngine

/// What `home on|off|toggle|level --room|--group` prints: one line for the room or group (how the command went out), one per device
/// (how it was reached, when its subscription confirmed), and exit status 1 when a device did not confirm.
enum RoomCommandText {
    static func render(_ result: Room.CommandResult, room: String, command: GroupCommand.Command) -> CommandOutput {
        let grouped = result.members.filter { $0.via == "group" }.count
        let unicast = result.members.count - grouped
        var head = "\(room): \(command)"
        if grouped > 0 {
            head +=
                ": one group message (group \(String(format: "0x%04X", result.groupID))) to \(grouped) device\(grouped == 1 ? "" : "s")"
            if unicast > 0 { head += ", unicast to \(unicast)" }
        } else {
            head += ": unicast to \(unicast) device\(unicast == 1 ? "" : "s")"
        }
        if let skipped = result.groupMessageSkipped { head += " (no group message: \(skipped))" }
        let table = TextTable.render(
            header: ["DEVICE", "VIA", "CONFIRMED"],
            rows: result.members.map { member in
                let outcome: String =
                    if let failure = member.failure {
                        "failed: \(failure)"
                    } else if let after = member.confirmedAfterMilliseconds {
                        after == 0 ? "confirmed (already so)" : "confirmed after \(milliseconds(after))"
                    } else {
                        "not confirmed within 3 s"
                    }
                return [member.name, member.via, outcome]
            })
        let unconfirmed = result.members.filter { $0.confirmedAfterMilliseconds == nil }.count
        let text = head + "\n" + table
        guard unconfirmed == 0 else {
            return CommandOutput(
                exitCode: 1, standardOutput: text,
                standardError: "error: \(unconfirmed) of \(result.members.count) devices did not confirm\n")
        }
        return .success(text)
    }

    private static func milliseconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.1f ms", value) : "\(Int(value.rounded())) ms"
    }
}
