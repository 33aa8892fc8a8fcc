import Foundation
import HomeHub
import HomeRecords
import MatterInteraction
import MatterTLV
import Testing

@testable import HomeCommandLine

@Suite struct DeviceDetailsTests {
    static let nodeID = HomeFixture.nodeID

    static func device(
        endpoint: UInt16, name: String, types: [UInt32], tags: [EndpointSemanticTag] = []
    ) -> DeviceRecord {
        let node = NodeRecord(
            nodeID: nodeID, vendorID: 0xFFF4, productID: 0x1234, vendorName: "CircuitMatter", productName: "Lamp",
            attestation: NodeRecord.Attestation(verdict: "trusted PAA", trusted: true), state: .commissioned,
            addresses: [], mrpParameters: nil, createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0))
        return DeviceRecord(
            id: DeviceID(nodeID: nodeID, endpoint: endpoint), name: name, roomID: "R1", roomName: "Office", node: node,
            deviceTypes: types.map { EndpointDeviceType(endpoint: endpoint, deviceType: $0, revision: 3) },
            semanticTags: tags.filter { $0.endpoint == endpoint })
    }

    static let endpoints = [
        EndpointDeviceType(endpoint: 0, deviceType: 0x0016, revision: 3),
        EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3),
        EndpointDeviceType(endpoint: 2, deviceType: 0x0101, revision: 3),
    ]

    /// The two lamps told apart by Common Position (0x08): Left; Right with a label of the device's own.
    static let tags = [
        EndpointSemanticTag(endpoint: 1, namespaceID: 0x08, tag: 0x00),
        EndpointSemanticTag(endpoint: 2, namespaceID: 0x08, tag: 0x01, label: "by the window"),
    ]

    /// A priming report as a node sends it: Basic Information on endpoint 0, OnOff on 1, LevelControl on 2, and an
    /// attribute of a vendor cluster the registry does not know.
    static var cache: AttributeCache {
        var cache = AttributeCache()
        let values: [(UInt16, UInt32, UInt32, TLVValue)] = [
            (0, 0x0028, 0x0001, .utf8("CircuitMatter")),
            (0, 0x0028, 0x0002, .unsigned(0xFFF4)),
            (1, 0x0006, 0x0000, .bool(true)),
            (1, 0x0006, 0xFFFB, .array([TLVElement(.unsigned(0)), TLVElement(.unsigned(0xFFFD))])),
            // AcceptedCommandList: Off, On, Toggle, and one the data model does not name.
            (1, 0x0006, 0xFFF9, .array([0, 1, 2, 0x77].map { TLVElement(.unsigned($0)) })),
            (2, 0x0008, 0x0000, .unsigned(127)),
            (2, 0xFFF1_FC01, 0x0002, .bytes([0xCA, 0xFE])),
        ]
        cache.apply(
            values.map { endpoint, cluster, attribute, value in
                .data(
                    AttributeDataIB(
                        dataVersion: 1,
                        path: AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute),
                        data: TLVElement(value)))
            })
        return cache
    }

    @Test func printsEveryEndpointsAttributesByName() {
        let details = DeviceDetails(
            device: Self.device(endpoint: 1, name: "Desk lamp 1", types: [0x0100], tags: Self.tags),
            nodeEndpoints: Self.endpoints, nodeTags: Self.tags, otherDevices: [2: "Desk lamp 2"], state: .online,
            cache: Self.cache)
        #expect(
            details.text == """
                Desk lamp 1 (391D788B9528D5FA-1)
                  Room:          Office
                  Vendor:        CircuitMatter (0xFFF4)
                  Product:       Lamp (0x1234)
                  Device types:  On/Off Light (0x0100, revision 3)
                  Tags:          Left
                  Attestation:   trusted (trusted PAA)
                  Connectivity:  online
                  Locality:      direct

                Endpoint 0: Root Node
                  BasicInformation (0x0028)
                    VendorName: "CircuitMatter"
                    VendorID: 65524
                Endpoint 1 (this device): On/Off Light [Left]
                  OnOff (0x0006)
                    Commands: Off, On, Toggle, 0x0077
                    OnOff: true
                    AcceptedCommandList: [0, 1, 2, 119]
                    AttributeList: [0, 65533]
                Endpoint 2 (Desk lamp 2): Dimmable Light [Right "by the window"]
                  LevelControl (0x0008)
                    CurrentLevel: 127
                  0xFFF1FC01
                    0x0002: 0xCAFE

                """)
        #expect(
            details.json.rendered == """
                {"id":"391D788B9528D5FA-1","name":"Desk lamp 1","room":"Office","nodeID":"391D788B9528D5FA","endpoint":1,\
                "vendorID":65524,"vendorName":"CircuitMatter","productID":4660,"productName":"Lamp",\
                "deviceTypes":[{"id":256,"name":"On/Off Light","revision":3}],\
                "tags":[{"namespaceID":8,"tag":0,"label":null,"manufacturerCode":null,"name":"Left"}],"attestationTrusted":true,\
                "connectivity":"online","offlineReason":null,"locality":"direct","endpoints":[\
                {"endpoint":0,"device":null,"deviceTypes":[{"id":22,"name":"Root Node","revision":3}],"tags":[],"clusters":[\
                {"id":40,"name":"BasicInformation","attributes":[{"id":1,"name":"VendorName","value":"CircuitMatter"},{"id":2,"name":"VendorID","value":65524}],"commands":[]}]},\
                {"endpoint":1,"device":"391D788B9528D5FA-1","deviceTypes":[{"id":256,"name":"On/Off Light","revision":3}],\
                "tags":[{"namespaceID":8,"tag":0,"label":null,"manufacturerCode":null,"name":"Left"}],"clusters":[\
                {"id":6,"name":"OnOff","attributes":[{"id":0,"name":"OnOff","value":true},\
                {"id":65529,"name":"AcceptedCommandList","value":[0,1,2,119]},{"id":65531,"name":"AttributeList","value":[0,65533]}],\
                "commands":["Off","On","Toggle","0x0077"]}]},\
                {"endpoint":2,"device":"391D788B9528D5FA-2","deviceTypes":[{"id":257,"name":"Dimmable Light","revision":3}],\
                "tags":[{"namespaceID":8,"tag":1,"label":"by the window","manufacturerCode":null,"name":"Right \\"by the window\\""}],"clusters":[\
                {"id":8,"name":"LevelControl","attributes":[{"id":0,"name":"CurrentLevel","value":127}],"commands":[]},\
                {"id":4294048769,"name":null,"attributes":[{"id":2,"name":null,"value":"0xCAFE"}],"commands":[]}]}]}
                """)
    }

    /// The stored endpoints still show, without values.
    @Test func anOfflineNodeShowsWhyAndNoValues() {
        let details = DeviceDetails(
            device: Self.device(endpoint: 2, name: "Desk lamp 2", types: [0x0100, 0x0101]),
            nodeEndpoints: Self.endpoints,
            otherDevices: [1: "Desk lamp 1"], state: .offline(since: Date(), reason: "no route to host"),
            cache: AttributeCache())
        #expect(
            details.text == """
                Desk lamp 2 (391D788B9528D5FA-2)
                  Room:          Office
                  Vendor:        CircuitMatter (0xFFF4)
                  Product:       Lamp (0x1234)
                  Device types:  On/Off Light (0x0100, revision 3), Dimmable Light (0x0101, revision 3)
                  Tags:          -
                  Attestation:   trusted (trusted PAA)
                  Connectivity:  offline (no route to host)
                  Locality:      unspecified

                No attribute values: the node did not answer.
                Endpoint 0: Root Node
                Endpoint 1 (Desk lamp 1): On/Off Light
                Endpoint 2 (this device): Dimmable Light

                """)
        #expect(
            details.json.rendered.contains(
                #""connectivity":"offline","offlineReason":"no route to host","locality":"unspecified","endpoints":[{"endpoint":0"#
            ))
    }

    @Test func showOfAnUnreachableDeviceSaysOffline() async throws {
        let state = try await HomeFixture.hubWithLamps()
        let output = await HomeCommand.run(["show", "Desk lamp 1", "--state", state])
        #expect(output.exitCode == 0)
        #expect(
            output.standardOutput.contains(
                "  Connectivity:  offline (no address is known for it and no network interface is configured to look it up)\n"
            ))
        #expect(output.standardOutput.hasSuffix("Endpoint 2 (Desk lamp 2): On/Off Light, Dimmable Light\n"))
    }

    /// The tags come from the store: an unreachable panel still shows which button is which.
    @Test func showPrintsTheStoredTagsOfEveryPart() async throws {
        let state = try await HomeFixture.hubWithLampsAndPanel()
        let output = await HomeCommand.run(["show", "Panel 4", "--state", state])
        #expect(output.exitCode == 0)
        #expect(output.standardOutput.contains("  Tags:          Number 4 \"Night\"\n"))
        #expect(
            output.standardOutput.hasSuffix(
                """
                Endpoint 0: Root Node
                Endpoint 1 (Panel 1): Generic Switch [Number 1]
                Endpoint 2 (Panel 2): Generic Switch [Number 2]
                Endpoint 3 (Panel 3): Generic Switch [Number 3]
                Endpoint 4 (this device): Generic Switch [Number 4 "Night"]

                """))
    }
}
