import Foundation
import Testing

@testable import HomeCommandLine

@Suite struct HomeAPICommandsTests {
    @Test func roomsAreAddedListedAndRefusedWhenTheNameIsTaken() async throws {
        let state = try await HomeFixture.hubWithLamps(room: "Office")
        #expect(
            await HomeCommand.run(["room", "add", "kitchen", "--state", state]) == .success("added room \"kitchen\"\n"))
        let taken = await HomeCommand.run(["room", "add", "KITCHEN", "--state", state])
        #expect(taken.exitCode == 2)
        #expect(taken.standardError == "error: room \"KITCHEN\" already exists (see 'home rooms')\n")
        let blank = await HomeCommand.run(["room", "add", "  ", "--state", state])
        #expect(blank.exitCode == 2)
        #expect(
            blank.standardError
                == "error: invalid room name \"  \": it needs at least one character that is not white space\n")
        #expect(
            await HomeCommand.run(["rooms", "--state", state])
                == .success(
                    """
                    ROOM     STRUCTURE  DEVICES
                    kitchen  Home       0
                    Office   Home       2

                    """))
        let json = await HomeCommand.run(["rooms", "--json", "--state", state])
        let ids = try #require(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
            .compactMap { $0["id"] as? String }
        try #require(ids.count == 2)
        #expect(
            json.standardOutput == """
                [{"id":"\(ids[0])","name":"kitchen","structure":"Home","deviceIDs":[]},\
                {"id":"\(ids[1])","name":"Office","structure":"Home","deviceIDs":["391D788B9528D5FA-1","391D788B9528D5FA-2"]}]

                """)
    }

    @Test func aNewHomeHasNoRooms() async {
        let state = HubCommandsTests.temporaryState()
        #expect(
            await HomeCommand.run(["rooms", "--state", state])
                == .success("No rooms yet. Add one with 'home room add NAME'.\n"))
        #expect(await HomeCommand.run(["rooms", "--json", "--state", state]) == .success("[]\n"))
    }

    @Test func aLongRoomNameIsCutTo60CodePointsAndSaysSo() async throws {
        let state = HubCommandsTests.temporaryState()
        // 61 code points: 59 letters, then "e" and a combining acute accent (one grapheme, two code points).
        let name = String(repeating: "a", count: 59) + "e\u{301}"
        let output = await HomeCommand.run(["room", "add", name, "--state", state])
        #expect(
            output == .success("added room \"\(String(repeating: "a", count: 59))e\" (cut to 60 Unicode code points)\n")
        )
    }

    @Test func renameByNameOrIDAndCutLongNames() async throws {
        let state = try await HomeFixture.hubWithLamps()
        #expect(
            await HomeCommand.run(["rename", "desk LAMP 1", "Reading lamp", "--state", state])
                == .success("Desk lamp 1 (391D788B9528D5FA-1) is now \"Reading lamp\"\n"))
        let long = String(repeating: "x", count: 70)
        #expect(
            await HomeCommand.run(["rename", "391D788B9528D5FA-2", long, "--state", state])
                == .success(
                    "Desk lamp 2 (391D788B9528D5FA-2) is now \"\(String(repeating: "x", count: 60))\" (cut to 60 Unicode code points)\n"
                ))
        let devices = await HomeCommand.run(["devices", "--state", state])
        #expect(devices.standardOutput.contains("391D788B9528D5FA-1  Reading lamp  "))
        #expect(devices.standardOutput.contains("391D788B9528D5FA-2  \(String(repeating: "x", count: 60))  "))
    }

    @Test func refusesBadInput() async throws {
        let state = try await HomeFixture.hubWithLamps()
        #expect(await HomeCommand.run(["rename", "Desk lamp 1", "Twin", "--state", state]).exitCode == 0)
        #expect(await HomeCommand.run(["rename", "Desk lamp 2", "twin", "--state", state]).exitCode == 0)
        let cases: [([String], String)] = [
            (["rename", "Lamp", "New", "--state", state], "error: no device \"Lamp\" (see 'home devices')\n"),
            (
                ["rename", "Twin", "New", "--state", state],
                "error: 2 devices are named \"Twin\" (391D788B9528D5FA-1, 391D788B9528D5FA-2): give the device's ID\n"
            ),
            (
                ["rename", "391D788B9528D5FA-1", " ", "--state", state],
                "error: invalid device name \" \": it needs at least one character that is not white space\n"
            ),
            (["rename", "391D788B9528D5FA-1", "--state", state], "error: missing NAME (see 'home rename --help')\n"),
            (
                ["move", "391D788B9528D5FA-1", "Attic", "--state", state],
                "error: no room \"Attic\"; the home has no rooms yet (add one with 'home room add NAME')\n"
            ),
            (["move", "Lamp", "Attic", "--state", state], "error: no device \"Lamp\" (see 'home devices')\n"),
            (["show", "Lamp", "--state", state], "error: no device \"Lamp\" (see 'home devices')\n"),
            (
                ["room", "remove", "Attic", "--state", state],
                "error: unknown command 'remove' for 'home room' (see 'home room --help')\n"
            ),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments)
            #expect(output.exitCode == 2, "\(arguments)")
            #expect(output.standardError == message, "\(arguments)")
            #expect(output.standardOutput == "")
        }
    }

    @Test func moveToAnUnknownRoomListsTheRooms() async throws {
        let state = try await HomeFixture.hubWithLamps()
        for room in ["Office", "attic", "Kitchen"] {
            #expect(await HomeCommand.run(["room", "add", room, "--state", state]).exitCode == 0)
        }
        let output = await HomeCommand.run(["move", "Desk lamp 1", "Cellar", "--state", state])
        #expect(output.exitCode == 2)
        #expect(output.standardError == "error: no room \"Cellar\"; the rooms are: attic, Kitchen, Office\n")
        #expect(
            await HomeCommand.run(["move", "Desk lamp 1", "office", "--state", state])
                == .success("Desk lamp 1 (391D788B9528D5FA-1) is now in Office\n"))
        #expect(
            await HomeCommand.run(["rooms", "--state", state])
                == .success(
                    """
                    ROOM     STRUCTURE  DEVICES
                    attic    Home       0
                    Kitchen  Home       0
                    Office   Home       1

                    """))
    }

    @Test func removeTakesTheWholeNodeSaysWhenTheDeviceKeepsTheFabricAndRefusesWhatIsNotThere() async throws {
        let state = try await HomeFixture.hubWithLampsAndPanel()
        // The fixture's nodes have no known address: they cannot be told to leave the fabric, and are forgotten all the same.
        #expect(
            await HomeCommand.run(["remove", "Desk lamp 1", "--state", state])
                == .success(
                    """
                    removed Desk lamp 1 (391D788B9528D5FA-1, 391D788B9528D5FA-2)
                    note: the device did not leave the hub's fabric (node 0x391D788B9528D5FA has no known address; pass --interface to find it \
                    by DNS-SD); it keeps it until it is factory reset

                    """))
        // A node ID names the whole node, under its product's name.
        let panel = await HomeCommand.run(["remove", "7A1B2C3D4E5F6071", "--state", state])
        #expect(panel.exitCode == 0)
        #expect(panel.standardOutput.hasPrefix("removed 4-Switch Panel (7A1B2C3D4E5F6071)\n"))
        #expect(
            await HomeCommand.run(["devices", "--state", state])
                == .success("No devices yet. Add one with 'home commission CODE'.\n"))
        let unknown = await HomeCommand.run(["remove", "Desk lamp 1", "--state", state])
        #expect(unknown.exitCode == 2)
        #expect(unknown.standardError == "error: no device \"Desk lamp 1\" (see 'home devices')\n")
    }

    @Test func roomsAreRenamedAndDeletedAndTheirDevicesStay() async throws {
        let state = try await HomeFixture.hubWithLamps(room: "Office")
        #expect(
            await HomeCommand.run(["room", "rename", "office", "Study", "--state", state])
                == .success("room \"Office\" is now \"Study\"\n"))
        #expect(await HomeCommand.run(["room", "add", "Hall", "--state", state]).exitCode == 0)
        let taken = await HomeCommand.run(["room", "rename", "Study", "HALL", "--state", state])
        #expect(taken.exitCode == 2)
        #expect(taken.standardError.contains("already exists"))
        #expect(
            await HomeCommand.run(["room", "delete", "study", "--state", state]) == .success("deleted room \"Study\"\n")
        )
        let unknown = await HomeCommand.run(["room", "delete", "Study", "--state", state])
        #expect(unknown.exitCode == 2)
        #expect(unknown.standardError == "error: no room \"Study\"; the rooms are: Hall\n")
        // The lamps are still in the home, in no room.
        #expect(
            await HomeCommand.run(["rooms", "--state", state])
                == .success(
                    """
                    ROOM  STRUCTURE  DEVICES
                    Hall  Home       0

                    """))
        let devices = await HomeCommand.run(["devices", "--json", "--state", state])
        let list = try #require(
            JSONSerialization.jsonObject(with: Data(devices.standardOutput.utf8)) as? [[String: Any]])
        #expect(list.count == 2)
        #expect(list.allSatisfy { $0["room"] is NSNull })
    }
}
