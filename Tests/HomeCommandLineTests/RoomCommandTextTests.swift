import Foundation
import HomeEngine
import Testing

@testable import HomeCommandLine

/// What `home on|off|toggle|level --room` prints, snapshot by snapshot.
@Suite struct RoomCommandTextTests {
    static func reply(_ json: String) throws -> GroupCommand.Reply {
        try JSONDecoder().decode(GroupCommand.Reply.self, from: Data(json.utf8))
    }

    @Test func aRoomReachedByOneGroupMessageAndOneUnicast() throws {
        let result = try Self.reply(
            """
            {"groupID": 3, "members": [
              {"device": {"nodeID": 1, "endpoint": 1}, "name": "Lamp", "via": "group", "confirmedAfterMilliseconds": 12.4},
              {"device": {"nodeID": 2, "endpoint": 1}, "name": "Ceiling light", "via": "group",
               "confirmedAfterMilliseconds": 3.26},
              {"device": {"nodeID": 3, "endpoint": 1}, "name": "Plug", "via": "unicast", "confirmedAfterMilliseconds": 0}
            ]}
            """)
        let output = RoomCommandText.render(result, room: "Kitchen", command: .on)
        #expect(output.exitCode == 0)
        #expect(
            output.standardOutput == """
                Kitchen: On: one group message (group 0x0003) to 2 devices, unicast to 1
                DEVICE         VIA      CONFIRMED
                Lamp           group    confirmed after 12 ms
                Ceiling light  group    confirmed after 3.3 ms
                Plug           unicast  confirmed (already so)

                """)
    }

    @Test func aDeviceThatDidNotConfirmFailsTheCommand() throws {
        let result = try Self.reply(
            """
            {"groupID": 1, "groupMessageSkipped": "no network interface is chosen for group messages", "members": [
              {"device": {"nodeID": 1, "endpoint": 1}, "name": "Lamp", "via": "unicast", "failure": "node unreachable"},
              {"device": {"nodeID": 2, "endpoint": 1}, "name": "Fan", "via": "unicast"}
            ]}
            """)
        let output = RoomCommandText.render(result, room: "Hall", command: .level(128))
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                Hall: MoveToLevelWithOnOff 128: unicast to 2 devices (no group message: no network interface is chosen for group messages)
                DEVICE  VIA      CONFIRMED
                Lamp    unicast  failed: node unreachable
                Fan     unicast  not confirmed within 3 s

                """)
        #expect(output.standardError == "error: 2 of 2 devices did not confirm\n")
    }
}
