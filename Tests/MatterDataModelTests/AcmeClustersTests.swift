import MatterDataModel
import MatterTLV
import Testing
import VendorFixture

/// A vendor cluster generated from VendorFixture/AcmeClusters.matter into its own namespace (by
/// scripts/generate-datamodel.sh) compiles beside the standard ones and round-trips.
@Suite struct AcmeClustersTests {
    typealias Sprocket = AcmeClusters.AcmeSprocketCluster

    @Test func livesUnderTheVendorNamespaceWithItsManufacturerID() {
        #expect(Sprocket.id == 0xFFF1_FC01 && Sprocket.revision == 2)
        #expect(AcmeClusters.all.map(\.id) == [Sprocket.id])
        #expect(Sprocket.Attributes.owners.id == 0xFFF1_0000)
        #expect(type(of: Sprocket.Attributes.featureMap) == AttributeDefinition<Sprocket.Feature>.self)
        #expect(Sprocket.Attributes.clusterRevision.id == .clusterRevision)
    }

    @Test func attributesCarryTheirAccess() {
        let lockLevel = Sprocket.Attributes.lockLevel
        #expect(lockLevel.readPrivilege == .manage && lockLevel.writePrivilege == .administer)
        #expect(lockLevel.requiresTimedWrite && lockLevel.isNullable && lockLevel.isOptional)
        #expect(!Sprocket.Attributes.speed.isWritable)
        #expect(Sprocket.Attributes.direction.writePrivilege == .manage)
    }

    @Test func spinRoundTripsWithNestedStructsAndAGlobalEnum() throws {
        typealias Spin = Sprocket.Commands.Spin
        #expect(Spin.id == 0x00 && Spin.requiresTimedInvoke && Spin.invokePrivilege == .manage)
        #expect(Spin.Response.id == 0x01)
        let spin = Spin(
            speed: 1200, direction: .counterClockwise,
            steps: [.init(speed: 5, color: .value(.blue)), .init(speed: 6, direction: .clockwise, color: .null)])
        // {0: 1200, 1: 1, 2: [{0: 5, 2: 2}, {0: 6, 1: 0, 2: null}]}
        let bytes: [UInt8] = [
            0x15, 0x25, 0x00, 0xB0, 0x04, 0x24, 0x01, 0x01, 0x36, 0x02,
            0x15, 0x24, 0x00, 0x05, 0x24, 0x02, 0x02, 0x18,
            0x15, 0x24, 0x00, 0x06, 0x24, 0x01, 0x00, 0x34, 0x02, 0x18,
            0x18, 0x18,
        ]
        #expect(TLVWriter.encode(TLVElement(spin.tlvValue())) == bytes)
        #expect(try Spin(tlv: TLVReader.decode(bytes)) == spin)
    }

    @Test func registriesCombine() {
        let registry = ClusterRegistry(MatterClusters.all + AcmeClusters.all)
        #expect(registry.describe(cluster: Sprocket.id, command: Sprocket.Commands.Spin.id) == "AcmeSprocket.Spin")
        #expect(registry.describe(cluster: Sprocket.id, attribute: 0x0002) == "AcmeSprocket.LockLevel")
        #expect(registry.describe(cluster: OnOffCluster.id, command: 0x02) == "OnOff.Toggle")
    }
}
