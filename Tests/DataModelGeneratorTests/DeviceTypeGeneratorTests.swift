import Foundation
import Testing

@testable import DataModelGenerator

@Suite struct DeviceTypeGeneratorTests {
    static let xml = """
        <?xml version="1.0"?>
        <configurator>
            <deviceType>
                <name>MA-orphan</name>
                <typeName>Orphan Clusters</typeName>
                <deviceId editable="false">0xFFF10001</deviceId>
                <clusters lockOthers="true">
                    <include cluster="Nowhere" client="false" server="true" clientLocked="true" serverLocked="true"></include>
                </clusters>
            </deviceType>
            <deviceType>
                <typeName>Dimmable Light</typeName>
                <deviceId editable="false">0x0101</deviceId>
                <deviceRevision>3</deviceRevision>
                <class>Simple</class>
                <scope>Endpoint</scope>
                <superset>On/Off Light</superset>
                <clusters lockOthers="true">
                    <include cluster="Level Control" client="false" server="true" clientLocked="true" serverLocked="true">
                        <requireAttribute>CURRENT_LEVEL</requireAttribute>
                    </include>
                    <include cluster="On/Off" client="false" server="true" clientLocked="true" serverLocked="true"></include>
                    <include cluster="Binding" client="false" server="false" clientLocked="true" serverLocked="false"></include>
                    <include cluster="Occupancy Sensing" client="false" server="false" clientLocked="false" serverLocked="true"></include>
                </clusters>
            </deviceType>
            <deviceType>
                <typeName>On/Off Light</typeName>
                <deviceId editable="false">0x0100</deviceId>
                <endpointComposition>
                    <endpoint conformance="O">
                        <deviceType id="0x0107" name="Occupancy Sensor">
                            <clusters>
                                <include cluster="Nowhere" client="false" server="true" clientLocked="true" serverLocked="true"></include>
                            </clusters>
                        </deviceType>
                    </endpoint>
                </endpointComposition>
                <clusters>
                    <include cluster="On/Off" client="false" server="true" clientLocked="true" serverLocked="true"></include>
                </clusters>
            </deviceType>
        </configurator>
        """

    static let clusters = try! IDLParser.parse(
        """
        cluster OnOff = 6 {}
        cluster LevelControl = 8 {}
        cluster Binding = 30 {}
        cluster OccupancySensing = 1030 {}
        """
    ).clusters

    @Test func readsOnlyTopLevelDefinitions() throws {
        let entries = try DeviceTypeReader.read(Data(Self.xml.utf8))
        #expect(entries.map(\.typeName) == ["Orphan Clusters", "Dimmable Light", "On/Off Light"])
        #expect(entries.map(\.deviceID) == [0xFFF1_0001, 0x0101, 0x0100])
        #expect(entries[1].revision == 3 && entries[1].deviceClass == "Simple" && entries[1].superset == "On/Off Light")
        #expect(entries[2].clusters.map(\.cluster) == ["On/Off"])
        #expect(entries[2].revision == nil)
    }

    @Test func joinsClustersByNormalisedNameAndSortsByID() throws {
        let file = try DeviceTypeGenerator(
            entries: DeviceTypeReader.read(Data(Self.xml.utf8)), clusters: Self.clusters,
            source: "devices.xml"
        ).generate()
        #expect(file.name == "MatterDeviceTypes.swift")
        let text = file.contents
        #expect(!text.contains("Orphan"))
        #expect(
            text.contains(
                """
                    public static let dimmableLight = DeviceTypeDefinition(
                        id: 0x0101,
                        name: "Dimmable Light",
                        revision: 3,
                        deviceClass: .simple,
                        scope: .endpoint,
                        superset: 0x0100,
                        requiredServerClusters: [0x0006, 0x0008],
                        optionalServerClusters: [0x001E],
                        optionalClientClusters: [0x0406]
                    )
                """))
        #expect(
            text.contains(
                "revision: nil,\n        deviceClass: nil,\n        scope: nil,\n        requiredServerClusters: [0x0006]"
            ))
        #expect(
            text.contains(
                "    public static let all: [DeviceTypeDefinition] = [\n        onOffLight,\n        dimmableLight,\n    ]"
            ))
    }

    @Test func anUnknownClusterIsReportedWithItsLine() throws {
        let entries = try DeviceTypeReader.read(Data(Self.xml.utf8))
        #expect(
            throws: GeneratorError.deviceTypes(
                line: 8,
                message: "device type 'Orphan Clusters' includes cluster 'Nowhere', which the IDL does not define")
        ) {
            var definition = entries[0]
            definition.deviceID = 0x0200
            _ = try DeviceTypeGenerator(entries: [definition], clusters: Self.clusters, source: "x").generate()
        }
    }

    @Test func malformedXMLIsAnError() throws {
        #expect(throws: (any Error).self) {
            try DeviceTypeReader.read(Data("<configurator><deviceType".utf8))
        }
        let withoutID = try DeviceTypeReader.read(Data("<configurator>\n<deviceType></deviceType></configurator>".utf8))
        #expect(throws: GeneratorError.deviceTypes(line: 2, message: "device type '' has no deviceId")) {
            try DeviceTypeGenerator(entries: withoutID, clusters: [], source: "x").generate()
        }
        #expect(throws: GeneratorError.deviceTypes(line: 1, message: "'0xZZ' is not a number")) {
            try DeviceTypeReader.read(
                Data("<configurator><deviceType><deviceId>0xZZ</deviceId></deviceType></configurator>".utf8))
        }
    }
}
