import Testing

@testable import HomeCommandLine

/// Snapshot tests of the human-facing output: a change to any of these strings is a change users see.
@Suite struct OnboardingCommandsTests {
    @Test func parsesAQRCodeAsText() async {
        let output = await HomeCommand.run(["onboarding", "parse", "MT:Y.K9042C00KA0648G00"])
        #expect(output.exitCode == 0)
        #expect(output.standardError == "")
        #expect(
            output.standardOutput == """
                Version:            0
                Vendor ID:          0xFFF1 (65521)
                Product ID:         0x8000 (32768)
                Commissioning flow: standard
                Discovery:          ble
                Discriminator:      3840
                Passcode:           20202021
                Manual code:        34970112332
                QR code:            MT:Y.K9042C00KA0648G00

                """)
    }

    @Test func parsesAManualCodeAsText() async {
        let output = await HomeCommand.run(["onboarding", "parse", "3497-011-2332"])
        #expect(output.exitCode == 0)
        #expect(
            output.standardOutput == """
                Version:            0
                Vendor ID:          not in a manual pairing code
                Product ID:         not in a manual pairing code
                Commissioning flow: standard
                Discovery:          not in a manual pairing code (try every transport)
                Discriminator:      15 (short: the upper 4 bits of the 12-bit discriminator)
                Passcode:           20202021
                Manual code:        34970112332

                """)
    }

    @Test func parsesAsJSON() async {
        let manual = await HomeCommand.run(["onboarding", "parse", "749701123365521327694", "--json"])
        #expect(
            manual.standardOutput == """
                {"version":0,"vendorID":65521,"productID":32769,"commissioningFlow":"custom","discoveryCapabilities":null,\
                "discriminator":15,"shortDiscriminator":true,"passcode":20202021,"extensions":[]}

                """)
        let qr = await HomeCommand.run([
            "onboarding", "parse", "--json", "MT:M5L90MP500K64J0A33P0SET70.QT52B.E23-WZE0WISA0DK5N1K8SQ1RYCU1O0",
        ])
        #expect(
            qr.standardOutput == """
                {"version":0,"vendorID":12,"productID":1,"commissioningFlow":"standard","discoveryCapabilities":["soft-ap"],\
                "discriminator":128,"shortDiscriminator":false,"passcode":2048,"extensions":[\
                {"tag":130,"name":null,"value":"myData"},{"tag":131,"name":null,"value":12},\
                {"tag":0,"name":"serialNumber","value":"123456789"}]}

                """)
    }

    @Test func generatesBothCodes() async {
        let standard = await HomeCommand.run([
            "onboarding", "generate", "--vendor-id", "0xFFF1", "--product-id", "0x8000",
            "--discriminator", "3840", "--passcode", "20202021", "--discovery", "ble",
        ])
        #expect(standard.exitCode == 0)
        #expect(
            standard.standardOutput == """
                QR code:     MT:Y.K9042C00KA0648G00
                Manual code: 34970112332

                """)
        let custom = await HomeCommand.run([
            "onboarding", "generate", "--vendor-id=65521", "--product-id=32769",
            "--discriminator=3840", "--passcode=20202021", "--flow=custom",
        ])
        #expect(custom.standardOutput.hasSuffix("Manual code: 749701123365521327694\n"))
    }

    @Test func refusesBadInputWithStatus2AndOneLine() async {
        let cases: [([String], String)] = [
            (
                ["onboarding", "parse", "34970112331"],
                "error: check digit mismatch: the code ends in 1, its digits give 2\n"
            ),
            (
                ["onboarding", "parse", "hello"],
                "error: not an onboarding code: expected an 'MT:' QR code payload or an 11- or 21-digit manual pairing code\n"
            ),
            (
                [
                    "onboarding", "generate", "--vendor-id", "1", "--product-id", "1", "--discriminator", "1",
                    "--passcode", "12345678",
                ],
                "error: passcode 12345678 is not allowed\n"
            ),
            (
                [
                    "onboarding", "generate", "--vendor-id", "70000", "--product-id", "1", "--discriminator", "1",
                    "--passcode", "2048",
                ],
                "error: vendor ID 70000 is out of range 0…65535\n"
            ),
            (
                [
                    "onboarding", "generate", "--vendor-id", "1", "--product-id", "1", "--discriminator", "4096",
                    "--passcode", "2048",
                ],
                "error: discriminator 4096 is out of range 0…4095\n"
            ),
            (
                ["onboarding", "generate", "--vendor-id", "1", "--product-id", "1", "--discriminator", "1"],
                "error: missing --passcode (see 'home onboarding generate --help')\n"
            ),
            (
                [
                    "onboarding", "generate", "--vendor-id", "1", "--product-id", "1", "--discriminator", "1",
                    "--passcode", "2048", "--flow", "fast",
                ],
                "error: unknown flow 'fast' (expected standard, user-intent or custom)\n"
            ),
            (
                [
                    "onboarding", "generate", "--vendor-id", "1", "--product-id", "1", "--discriminator", "1",
                    "--passcode", "2048", "--discovery", "ble,nfc",
                ],
                "error: unknown discovery capability 'nfc' (expected soft-ap, ble, on-network, wifi-paf)\n"
            ),
            (
                ["onboarding", "parse", "34970112332", "--verbose"],
                "error: unknown option '--verbose' (see 'home onboarding parse --help')\n"
            ),
            (["onboarding", "parse"], "error: missing CODE (see 'home onboarding parse --help')\n"),
            (
                ["onboarding", "parse", "1", "2"],
                "error: unexpected argument '2' (see 'home onboarding parse --help')\n"
            ),
            (
                ["onboarding", "generate", "--passcode"],
                "error: --passcode needs a value (see 'home onboarding generate --help')\n"
            ),
            (["pair"], "error: unknown command 'pair' for 'home' (see 'home --help')\n"),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments)
            #expect(output.exitCode == 2, "\(arguments)")
            #expect(output.standardOutput == "", "\(arguments)")
            #expect(output.standardError == message, "\(arguments)")
        }
    }

    @Test func describesTheCommands() async {
        #expect(
            await HomeCommand.run(["--help"]).standardOutput == """
                OVERVIEW: swift-home: a Matter hub and Home API for Swift.

                USAGE: home <command>

                COMMANDS:
                  demo                    Run the whole system with no hardware: virtual devices on loopback, added, listed, switched, renamed and watched.
                  onboarding              Parse and generate Matter onboarding codes (QR code payloads and manual pairing codes).
                  discover                Find commissionable Matter nodes (_matterc._udp) by mDNS on the named interfaces.
                  commission              Commission Matter devices onto this hub's fabric and add their devices to the home.
                  add                     Add a Matter device to the home through the Home API, asking on the terminal for what is not given.
                  grant                   Let another local user add devices to a structure (or, with --revoke, stop letting them); the hub's owner only.
                  devices                 List the devices of the home: ID, name, room, vendor, product, device types and, with --live, connectivity.
                  show                    Show a device: types, tags, room, vendor, connectivity, locality and, read live, every attribute of its node's endpoints and the commands each cluster accepts.
                  rename                  Rename a device (names longer than 60 Unicode code points are cut).
                  rooms                   List the rooms of the home: name, structure and how many devices each holds.
                  room                    Add, rename and delete the home's rooms.
                  groups                  List the home's named groups of devices: name, Matter group ID and devices.
                  group                   Create, change and delete named groups of devices (one Matter group each, whatever the rooms).
                  move                    Put a device in a room.
                  remove                  Remove a device from the home: its node leaves the hub's fabric and is forgotten, with every device it has.
                  ping                    Open a CASE session to a device from scratch and read its vendor name, timing the round trip.
                  on                      Turn a device on (OnOff On), or every device of a room at once.
                  off                     Turn a device off (OnOff Off), or every device of a room at once.
                  toggle                  Toggle a device (OnOff Toggle; On or Off from its cached state when it does not accept Toggle), or every device of a room at once.
                  level                   Set a device's level (LevelControl MoveToLevelWithOnOff, no transition), or every device's of a room at once (home level --room ROOM LEVEL).
                  read                    Print an attribute of a device from its node's live attribute cache; without one, every attribute of the device's endpoint.
                  invoke                  Send any command of the data model to a device and print its response.
                  write                   Write an attribute of a device and print the device's answer.
                  network                 Show the Wi-Fi network and Thread network the hub gives new devices (never their secrets), or set them.
                  updates                 Each device's software version and the newest image of the hub's folder it may take.
                  update                  Update a device's firmware from the hub's folder of images, following it until the device runs it.
                  watch                   Print one line per change as it happens (time, device, attribute, new value), every event (time, device, event, fields) and every connectivity change, until Ctrl-C.
                  share                   Open a commissioning window so another ecosystem can add a device; print its codes.
                  fabrics                 List the ecosystems that control a device: each fabric of its node, this hub's marked.
                  serve                   Run the hub: follow every device live until SIGINT or SIGTERM, one line per device state change.
                  status                  Show the hub serving the home: PID, uptime, nodes online and offline, clients connected.
                  -h, --help              Show help information.

                """)
        #expect(
            await HomeCommand.run(["onboarding", "--help"]).standardOutput == """
                OVERVIEW: Parse and generate Matter onboarding codes (QR code payloads and manual pairing codes).

                USAGE: home onboarding <command>

                COMMANDS:
                  parse                   Print the fields of a QR code payload (MT:…) or a manual pairing code.
                  generate                Make the QR code payload and manual pairing code for a device's setup values.
                  -h, --help              Show help information.

                """)
        #expect(
            await HomeCommand.run(["onboarding", "parse", "-h"]).standardOutput == """
                OVERVIEW: Print the fields of a QR code payload (MT:…) or a manual pairing code.

                USAGE: home onboarding parse CODE [--json]

                ARGUMENTS:
                  CODE                    An MT: QR code payload, or an 11- or 21-digit manual pairing code.

                OPTIONS:
                  --json                  Print one JSON object instead of text.
                  -h, --help              Show help information.

                """)
        #expect(await HomeCommand.run([]).standardOutput.hasPrefix("OVERVIEW: swift-home"))
    }
}
