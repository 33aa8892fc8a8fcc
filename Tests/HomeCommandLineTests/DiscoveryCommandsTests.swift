import MatterDiscovery
import Testing

@testable import HomeCommandLine

/// `home discover`: refusals before any packet is sent, and snapshots of how a found node prints.
/// Nothing here sends multicast; the interop script runs the real browse inside a namespace.
@Suite struct DiscoveryCommandsTests {
    @Test func refusesBadInputWithStatus2() async {
        let cases: [([String], String)] = [
            (
                ["discover"],
                "error: missing --interface (name each interface to query on) (see 'home discover --help')\n"
            ),
            (
                ["discover", "--interface", "lo", "--discriminator", "4096"],
                "error: discriminator '4096' is not a number in 0…4095\n"
            ),
            (
                ["discover", "--interface", "lo", "--short-discriminator", "16"],
                "error: short discriminator '16' is not a number in 0…15\n"
            ),
            (
                ["discover", "--interface", "lo", "--discriminator", "1", "--short-discriminator", "0"],
                "error: give --discriminator or --short-discriminator, not both (see 'home discover --help')\n"
            ),
            (
                ["discover", "--interface", "lo", "--timeout", "0"],
                "error: timeout '0' is not a number of seconds in (0, 3600]\n"
            ),
            (
                ["discover", "--interface", ",", "--timeout", "1"],
                "error: missing --interface (name each interface to query on) (see 'home discover --help')\n"
            ),
        ]
        for (arguments, message) in cases {
            let output = await HomeCommand.run(arguments)
            #expect(output.exitCode == 2, "\(arguments)")
            #expect(output.standardError == message, "\(arguments)")
        }
    }

    /// Every named interface is checked before the first query goes out, so an unknown one fails with status 1.
    @Test func refusesAnUnknownInterfaceBeforeSending() async {
        let output = await HomeCommand.run(["discover", "--interface", "lo,no-such-if0", "--timeout", "1"])
        #expect(output.exitCode == 1)
        #expect(output.standardError == "error: no network interface named 'no-such-if0'\n")
    }

    private static let circuitMatterNode = CommissionableNode(
        instanceName: "DF499CA3C4215822", hostName: "circuitmatter-lab.local", port: 5541,
        ipv4Addresses: [IPv4Address(0x7F00_0001)], ipv6Addresses: [IPv6Address(0, 1)],
        txt: MatterTXTRecord(entries: [
            TXTEntry(key: "D", value: "3840"), TXTEntry(key: "CM", value: "1"),
            TXTEntry(key: "VP", value: "65524+4660"),
            TXTEntry(key: "T", value: "1"), TXTEntry(key: "PI", value: ""), TXTEntry(key: "SII", value: "5000"),
            TXTEntry(key: "X", value: nil),
        ])
    )

    @Test func describesANodeAsText() {
        #expect(
            DiscoveryCommands.describe(Self.circuitMatterNode) == """
                Instance:           DF499CA3C4215822
                Host:               circuitmatter-lab.local
                Port:               5541
                Addresses:          ::1, 127.0.0.1
                Discriminator:      3840 (short 15)
                Vendor/product:     vendor 0xFFF4, product 0x1234
                Commissioning mode: 1 (basic)
                MRP intervals:      idle 5000 ms

                """)
    }

    @Test func describesANodeAsJSON() {
        #expect(
            DiscoveryCommands.json(Self.circuitMatterNode).rendered == """
                {"instance":"DF499CA3C4215822","host":"circuitmatter-lab.local","port":5541,"addresses":["::1","127.0.0.1"],\
                "discriminator":3840,"vendorID":65524,"productID":4660,"commissioningMode":1,"deviceType":null,"deviceName":null,\
                "pairingHint":null,"pairingInstruction":null,"sessionIdleIntervalMs":5000,"sessionActiveIntervalMs":null,\
                "sessionActiveThresholdMs":null,"txt":{"D":"3840","CM":"1","VP":"65524+4660","T":"1","PI":"","SII":"5000","X":true}}
                """)
    }

    @Test func acceptsRepeatedAndCommaSeparatedInterfaces() throws {
        guard
            case .run(_, let parsed) = try CommandParser.parse(
                ["discover", "--interface", "lo", "--interface=eth9,wlan9", "--json"], root: HomeCommand.root)
        else {
            Issue.record("not parsed as a run")
            return
        }
        #expect(parsed.repeatedValues["interface"] == ["lo", "eth9,wlan9"])
        #expect(parsed.values["interface"] == "eth9,wlan9")
    }
}
