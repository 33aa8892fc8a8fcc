import Foundation
import Testing

@testable import HomeAPI
@testable import HomeCommandLine
@testable import HomeEngine
@testable import HubWire

@Suite struct SharingCommandsTests {
    @Test func badInputExits2AndAnUnreachableDeviceExits1SayingWhy() async throws {
        let state = try await HomeFixture.hubWithLamps()
        let cases: [([String], Int32, String)] = [
            (["share", "Lamp", "--state", state], 2, "error: no device \"Lamp\" (see 'home devices')\n"),
            (["fabrics", "Lamp", "--state", state], 2, "error: no device \"Lamp\" (see 'home devices')\n"),
            (
                ["share", "Desk lamp 1", "--timeout", "soon", "--state", state], 2,
                "error: timeout 'soon' is not a number of seconds\n"
            ),
            (
                ["share", "Desk lamp 1", "--timeout", "100", "--state", state], 2,
                "error: a commissioning window stays open 180 to 900 seconds, not 100.0 seconds\n"
            ),
            (
                ["share", "Desk lamp 1", "--state", state], 1,
                "error: node 391D788B9528D5FA: no address is known for it and no network interface is configured "
                    + "to look it up\n"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = await HomeCommand.run(arguments)
            #expect(result.exitCode == status, "\(arguments)")
            #expect(result.standardError == message, "\(arguments)")
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test func fabricsPrintAsATableAndAsJSON() {
        let fabrics = [
            DeviceFabric(
                index: 1, vendorID: 0xFFF1, vendorName: "test vendor 1", label: "Home", nodeID: 0x391D_788B_9528_D5FA,
                fabricID: 0x2906_C908_D115_D362, rootKeyFingerprint: "0A1B2C3D4E5F6071", isThisHub: true),
            DeviceFabric(
                index: 2, vendorID: 0x1349, vendorName: "Apple Home", label: "", nodeID: 0x11,
                fabricID: 0xABCD, rootKeyFingerprint: "FFEEDDCCBBAA9988", isThisHub: false),
            DeviceFabric(
                index: 3, vendorID: 0x1234, vendorName: nil, label: "Kitchen", nodeID: 0x22, fabricID: 0x1,
                rootKeyFingerprint: "0011223344556677", isThisHub: false),
        ]
        #expect(
            SharingCommands.render(fabrics, window: .closed, json: false) == """
                INDEX  VENDOR                  LABEL    NODE ID           ROOT KEY
                1      test vendor 1 (0xFFF1)  Home     391D788B9528D5FA  0A1B2C3D4E5F6071  this hub
                2      Apple Home (0x1349)     -        0000000000000011  FFEEDDCCBBAA9988
                3      (0x1234)                Kitchen  0000000000000022  0011223344556677
                Commissioning window: closed

                """)
        #expect(
            SharingCommands.render(Array(fabrics.prefix(1)), window: .enhanced, json: true)
                == #"{"fabrics":[{"index":1,"vendorID":65521,"vendorName":"test vendor 1","label":"Home","nodeID":"391D788B9528D5FA","fabricID":"2906C908D115D362","rootKeyFingerprint":"0A1B2C3D4E5F6071","thisHub":true}],"commissioningWindow":"enhanced"}"#
                + "\n")
    }
}
