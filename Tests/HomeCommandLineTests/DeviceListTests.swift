import Foundation
import HomeHub
import HomeRecords
import Testing

@testable import HomeCommandLine

@Suite struct DeviceListTests {
    @Test func theTableNamesDeviceTypesAndRooms() async throws {
        let state = try await HomeFixture.hubWithLamps(room: "Office")
        #expect(
            await HomeCommand.run(["devices", "--state", state])
                == .success(
                    """
                    ID                  NAME         ROOM    VENDOR                  PRODUCT        DEVICE TYPES
                    391D788B9528D5FA-1  Desk lamp 1  Office  CircuitMatter (0xFFF4)  Lamp (0x1234)  On/Off Light
                    391D788B9528D5FA-2  Desk lamp 2  Office  CircuitMatter (0xFFF4)  Lamp (0x1234)  On/Off Light, Dimmable Light

                    """))
        #expect(
            await HomeCommand.run(["devices", "--json", "--state", state])
                == .success(
                    """
                    [{"id":"391D788B9528D5FA-1","name":"Desk lamp 1","room":"Office","nodeID":"391D788B9528D5FA","endpoint":1,\
                    "vendorID":65524,"vendorName":"CircuitMatter","productID":4660,"productName":"Lamp",\
                    "deviceTypes":[{"id":256,"name":"On/Off Light","revision":3}],"tags":[],"attestationTrusted":true},\
                    {"id":"391D788B9528D5FA-2","name":"Desk lamp 2","room":"Office","nodeID":"391D788B9528D5FA","endpoint":2,\
                    "vendorID":65524,"vendorName":"CircuitMatter","productID":4660,"productName":"Lamp",\
                    "deviceTypes":[{"id":256,"name":"On/Off Light","revision":3},{"id":257,"name":"Dimmable Light","revision":3}],"tags":[],"attestationTrusted":true}]

                    """))
    }

    /// The fixture's node has no known address: connecting fails at once, and says why.
    @Test func liveShowsEachNodesConnectivity() async throws {
        let state = try await HomeFixture.hubWithLamps()
        let reason = "no address is known for it and no network interface is configured to look it up"
        #expect(
            await HomeCommand.run(["devices", "--live", "--state", state])
                == .success(
                    """
                    ID                  NAME         ROOM  CONNECTIVITY\(String(repeating: " ", count: reason.count))VENDOR                  PRODUCT        DEVICE TYPES
                    391D788B9528D5FA-1  Desk lamp 1  -     offline (\(reason))  CircuitMatter (0xFFF4)  Lamp (0x1234)  On/Off Light
                    391D788B9528D5FA-2  Desk lamp 2  -     offline (\(reason))  CircuitMatter (0xFFF4)  Lamp (0x1234)  On/Off Light, Dimmable Light

                    """))
        let json = await HomeCommand.run(["devices", "--live", "--json", "--state", state])
        #expect(
            json.standardOutput.contains(
                #""attestationTrusted":true,"connectivity":"offline","offlineReason":"\#(reason)","locality":"unspecified"}"#
            ))
    }

    /// One line per node, named as the Home API names a multipart device (its product, as neither node has a name of
    /// its own), and its parts under it with their types and tags.
    @Test func multipartListsEachNodeWithItsTaggedParts() async throws {
        let state = try await HomeFixture.hubWithLampsAndPanel()
        #expect(
            await HomeCommand.run(["devices", "--multipart", "--state", state])
                == .success(
                    """
                    ID                    NAME            ROOM    VENDOR                  PRODUCT                  DEVICE TYPES                  TAGS
                    391D788B9528D5FA      Lamp            Office  CircuitMatter (0xFFF4)  Lamp (0x1234)            2 parts
                      391D788B9528D5FA-1  Desk lamp 1     Office                                                   On/Off Light                  -
                      391D788B9528D5FA-2  Desk lamp 2     Office                                                   On/Off Light, Dimmable Light  -
                    7A1B2C3D4E5F6071      4-Switch Panel  -       swift-home (0xFFF1)     4-Switch Panel (0x8004)  4 parts
                      7A1B2C3D4E5F6071-1  Panel 1         -                                                        Generic Switch                Number 1
                      7A1B2C3D4E5F6071-2  Panel 2         -                                                        Generic Switch                Number 2
                      7A1B2C3D4E5F6071-3  Panel 3         -                                                        Generic Switch                Number 3
                      7A1B2C3D4E5F6071-4  Panel 4         -                                                        Generic Switch                Number 4 "Night"

                    """))
        let json = await HomeCommand.run(["devices", "--multipart", "--json", "--state", state])
        #expect(json.exitCode == 0)
        #expect(
            json.standardOutput.hasPrefix(
                """
                [{"id":"391D788B9528D5FA","name":"Lamp","room":"Office","vendorID":65524,"vendorName":"CircuitMatter","productID":4660,\
                "productName":"Lamp","attestationTrusted":true,"parts":[\
                {"id":"391D788B9528D5FA-1","name":"Desk lamp 1","room":"Office","endpoint":1,"deviceTypes":[{"id":256,"name":"On/Off Light","revision":3}],"tags":[]},
                """))
        #expect(
            json.standardOutput.hasSuffix(
                """
                {"id":"7A1B2C3D4E5F6071-4","name":"Panel 4","room":null,"endpoint":4,"deviceTypes":[{"id":15,"name":"Generic Switch","revision":3}],\
                "tags":[{"namespaceID":7,"tag":4,"label":"Night","manufacturerCode":null,"name":"Number 4 \\"Night\\""}]}]}]

                """))
        // Without --multipart the panel is four devices.
        let flat = await HomeCommand.run(["devices", "--state", state])
        #expect(flat.standardOutput.split(separator: "\n").filter { $0.hasPrefix("7A1B2C3D4E5F6071-") }.count == 4)
    }

    @Test func connectivityIsDescribedForPeople() {
        #expect(LiveConnectivity.describe(.online) == "online")
        #expect(LiveConnectivity.describe(.connecting) == "no answer within 10 s")
        #expect(
            LiveConnectivity.describe(.offline(since: Date(), reason: "subscription lost"))
                == "offline (subscription lost)")
        #expect(LiveConnectivity.locality(.online) == "direct")
        #expect(LiveConnectivity.locality(.connecting) == "unspecified")
    }

    @Test func deviceTypesTheLibraryLacksShowTheirID() {
        #expect(DeviceTypeNames.name(0x0100) == "On/Off Light")
        #expect(DeviceTypeNames.name(0x010C) == "Color Temperature Light")
        #expect(DeviceTypeNames.name(0xFFF1_0001) == "0xFFF10001")
    }
}
