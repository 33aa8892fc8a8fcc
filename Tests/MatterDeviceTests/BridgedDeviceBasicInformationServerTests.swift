import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterTLV
import Testing

struct BridgedDeviceBasicInformationServerTests {
    private typealias Attributes = BridgedDeviceBasicInformationCluster.Attributes

    @Test func nodeLabelIsWritableUpTo32CharactersAndPersists() throws {
        var harness = ClusterServerHarness(
            BridgedDeviceBasicInformationServer(productName: "Bridged Light", uniqueID: "u-1"))
        #expect(harness.read(Attributes.reachable) == .bool(true))
        #expect(harness.read(Attributes.productName) == .utf8("Bridged Light"))
        let before = harness.version
        #expect(harness.write(Attributes.nodeLabel, "Hall") == .success)
        #expect(harness.version == before &+ 1)
        #expect(harness.write(Attributes.nodeLabel, String(repeating: "x", count: 33)) == .constraintError)
        #expect(harness.read(Attributes.nodeLabel) == .utf8("Hall"))
        var restored = BridgedDeviceBasicInformationServer(productName: "Bridged Light", uniqueID: "u-1")
        restored.restore(TLVElement(try #require(harness.server.persistentState)))
        #expect(restored.nodeLabel == "Hall")
    }
}
