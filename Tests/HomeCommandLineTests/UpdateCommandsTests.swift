import Foundation
import MatterOTA
import Testing

@testable import HomeCommandLine
@testable import HomeEngine

/// `home updates` and `home update add`: what a user sees of the hub's firmware images.
@Suite struct UpdateCommandsTests {
    static let image = ReadUpdates.Image(
        vendorID: 0xFFF1, productID: 0x8000, version: 2, versionString: "2.0", size: 30_123, file: "FFF1-8000-2.ota",
        minimumApplicable: nil, maximumApplicable: nil, releaseNotesURL: nil, source: nil)

    static let fetched = ReadUpdates.Image(
        vendorID: 0xFFF1, productID: 0x8000, version: 3, versionString: "3.0", size: 40_000, file: "FFF1-8000-3.ota",
        minimumApplicable: nil, maximumApplicable: nil, releaseNotesURL: nil,
        source: "https://on.dcl.csa-iot.org/images/3.ota")

    @Test func theTablesSayEachDevicesVersionAndWhatItMayTake() {
        let reply = ReadUpdates.Reply(
            nodes: [
                .init(
                    nodeID: 0x1234, names: ["Lamp"], vendorID: 0xFFF1, productID: 0x8000, version: 1,
                    versionString: "1.0", available: Self.image),
                .init(
                    nodeID: 0xABCD, names: ["Sensor", "Switch"], vendorID: 0xFFF4, productID: 0x1234, version: nil,
                    versionString: nil, available: nil),
            ], images: [Self.image, Self.fetched],
            unreadable: ["junk.ota: not an OTA image: its first 4 bytes are not 0x1BEEF11E"])
        #expect(
            UpdateCommands.text(reply) == """
                NODE              DEVICE          PRODUCT        RUNS          AVAILABLE
                0000000000001234  Lamp            0xFFF1/0x8000  1.0 (1)       2.0 (2) from the folder
                000000000000ABCD  Sensor, Switch  0xFFF4/0x1234  not reported  -

                IMAGE            PRODUCT        VERSION  SIZE         FROM
                FFF1-8000-2.ota  0xFFF1/0x8000  2.0 (2)  30123 bytes  the folder
                FFF1-8000-3.ota  0xFFF1/0x8000  3.0 (3)  40000 bytes  the DCL (on.dcl.csa-iot.org)
                not offered: junk.ota: not an OTA image: its first 4 bytes are not 0x1BEEF11E

                """)
        #expect(
            UpdateCommands.json(reply).rendered.hasPrefix(
                #"{"devices":[{"nodeID":"0000000000001234","names":["Lamp"],"vendorID":65521,"productID":32768,"version":1,"versionString":"1.0","available":{"vendorID":65521"#
            ))
    }

    @Test func anEmptyFolderSaysHowToAddAnImage() {
        #expect(
            UpdateCommands.text(ReadUpdates.Reply(nodes: [], images: [], unreadable: []))
                .hasSuffix("No images in the hub's folder (home update add FILE).\n"))
    }

    @Test func addingAFileForNoDeviceOfTheHomeIsRefused() async throws {
        let state = HubCommandsTests.temporaryState()
        let directory = (state as NSString).deletingLastPathComponent
        let path = directory + "/update.ota"
        let image = try OTAImage(
            payload: [1, 2, 3], vendorID: 0xFFF1, productID: 0x8000, softwareVersion: 2, softwareVersionString: "2.0")
        try Data(image.encoded).write(to: URL(fileURLWithPath: path))
        let added = await HomeCommand.run(["update", "add", path, "--state", state])
        #expect(added.exitCode == 2)
        #expect(
            added.standardError
                == "error: the image is for vendor 0xFFF1 product 0x8000; no device of this home is that product\n")
        let listed = await HomeCommand.run(["updates", "--state", state])
        #expect(listed.standardOutput.hasSuffix("No images in the hub's folder (home update add FILE).\n"))
        let notAFile = await HomeCommand.run(["update", "add", directory + "/none.ota", "--state", state])
        #expect(notAFile.standardError == "error: cannot read \(directory)/none.ota: No such file or directory\n")
    }

    @Test func fetchingTakesOneSourceAndSaysWhenThereIsNothingToAskFor() async throws {
        let state = HubCommandsTests.temporaryState()
        let directory = (state as NSString).deletingLastPathComponent
        for arguments in [[], ["--dcl", "https://on.dcl.csa-iot.org", "--records", "r.json"]] {
            let refused = await HomeCommand.run(["update", "fetch"] + arguments + ["--state", state])
            #expect(
                refused.exitCode == 2 && refused.standardError == "error: give either --dcl URL or --records FILE\n")
        }
        let missing = await HomeCommand.run([
            "update", "fetch", "--records", directory + "/none.json", "--state", state,
        ])
        #expect(missing.exitCode == 2 && missing.standardError == "error: cannot read \(directory)/none.json\n")
        let records = directory + "/records.json"
        try Data("[]".utf8).write(to: URL(fileURLWithPath: records))
        let empty = await HomeCommand.run(["update", "fetch", "--records", records, "--state", state])
        #expect(empty.exitCode == 0)
        #expect(empty.standardOutput == "no device of this home has reported its software version\n")
    }
}
