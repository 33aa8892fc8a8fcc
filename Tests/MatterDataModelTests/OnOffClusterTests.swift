import MatterDataModel
import MatterTLV
import Testing

/// Facts of the On/Off cluster (Matter Application Clusters §1.5) in the generated code.
@Suite struct OnOffClusterTests {
    @Test func identifiersMatchTheSpec() {
        #expect(OnOffCluster.id == 0x0006)
        #expect(OnOffCluster.Commands.Off.id == 0x00)
        #expect(OnOffCluster.Commands.On.id == 0x01)
        #expect(OnOffCluster.Commands.Toggle.id == 0x02)
        #expect(OnOffCluster.Commands.OffWithEffect.id == 0x40)
        #expect(OnOffCluster.Commands.OnWithTimedOff.id == 0x42)
        #expect(OnOffCluster.Feature.lighting.rawValue == 0x1)
    }

    @Test func onOffIsAReadOnlyBoolean() {
        let attribute = OnOffCluster.Attributes.onOff
        #expect(attribute.id == 0x0000 && attribute.cluster == 0x0006)
        #expect(type(of: attribute) == AttributeDefinition<Bool>.self)
        #expect(attribute.isReadable && !attribute.isWritable && !attribute.isNullable && !attribute.isOptional)
    }

    @Test func startUpOnOffIsNullableAndWritableWithManage() {
        let attribute = OnOffCluster.Attributes.startUpOnOff
        #expect(attribute.id == 0x4003)
        #expect(type(of: attribute) == AttributeDefinition<Nullable<OnOffCluster.StartUpOnOffEnum>>.self)
        #expect(attribute.isNullable && attribute.isOptional)
        #expect(attribute.writePrivilege == .manage && attribute.readPrivilege == .view)
    }

    @Test func globalAttributesAreThere() {
        #expect(OnOffCluster.Attributes.clusterRevision.id == 0xFFFD)
        #expect(OnOffCluster.Attributes.featureMap.id == 0xFFFC)
        #expect(type(of: OnOffCluster.Attributes.featureMap) == AttributeDefinition<OnOffCluster.Feature>.self)
        #expect(OnOffCluster.Attributes.attributeList.id == 0xFFFB)
        #expect(OnOffCluster.Attributes.acceptedCommandList.id == 0xFFF9)
        #expect(OnOffCluster.Attributes.generatedCommandList.id == 0xFFF8)
    }

    @Test func toggleHasNoFieldsAndAnEmptyStructure() throws {
        #expect(TLVWriter.encode(TLVElement(OnOffCluster.Commands.Toggle().tlvValue())) == [0x15, 0x18])
        _ = try OnOffCluster.Commands.Toggle(tlv: TLVReader.decode([0x15, 0x18]))
        #expect(throws: TLVError.typeMismatch(expected: .structure, found: .unsignedInteger)) {
            try OnOffCluster.Commands.Toggle(tlv: TLVElement(.unsigned(1)))
        }
    }

    @Test func onWithTimedOffEncodesItsFieldsAtTheirTags() throws {
        let command = OnOffCluster.Commands.OnWithTimedOff(onOffControl: .acceptOnlyWhenOn, onTime: 300, offWaitTime: 0)
        // {0: 1, 1: 300 (2 bytes), 2: 0}
        let bytes: [UInt8] = [0x15, 0x24, 0x00, 0x01, 0x25, 0x01, 0x2C, 0x01, 0x24, 0x02, 0x00, 0x18]
        #expect(TLVWriter.encode(TLVElement(command.tlvValue())) == bytes)
        #expect(try OnOffCluster.Commands.OnWithTimedOff(tlv: TLVReader.decode(bytes)) == command)
    }

    @Test func aMissingRequiredFieldIsNamed() {
        // OffWithEffect without its EffectVariant (tag 1).
        #expect(throws: TLVError.missingField(1)) {
            try OnOffCluster.Commands.OffWithEffect(tlv: TLVReader.decode([0x15, 0x24, 0x00, 0x00, 0x18]))
        }
    }
}
