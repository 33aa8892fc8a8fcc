import MatterDataModel
import MatterTLV
import Testing

/// Facts of the Level Control cluster (Matter Application Clusters §1.6) in the generated code.
@Suite struct LevelControlClusterTests {
    typealias MoveToLevelWithOnOff = LevelControlCluster.Commands.MoveToLevelWithOnOff

    @Test func identifiersMatchTheSpec() {
        #expect(LevelControlCluster.id == 0x0008)
        #expect(LevelControlCluster.Commands.MoveToLevel.id == 0x00)
        #expect(MoveToLevelWithOnOff.id == 0x04)
        #expect(LevelControlCluster.Commands.StopWithOnOff.id == 0x07)
        #expect(type(of: LevelControlCluster.Attributes.currentLevel) == AttributeDefinition<Nullable<UInt8>>.self)
        #expect(LevelControlCluster.Attributes.currentLevel.isNullable)
    }

    @Test func moveToLevelWithOnOffPutsLevelTransitionTimeMaskAndOverrideAtTags0To3() throws {
        let command = MoveToLevelWithOnOff(
            level: 254, transitionTime: .value(10), optionsMask: .executeIfOff, optionsOverride: [])
        // {0: 254, 1: 10, 2: 1, 3: 0}
        let bytes: [UInt8] = [0x15, 0x24, 0x00, 0xFE, 0x24, 0x01, 0x0A, 0x24, 0x02, 0x01, 0x24, 0x03, 0x00, 0x18]
        #expect(TLVWriter.encode(TLVElement(command.tlvValue())) == bytes)
        #expect(try MoveToLevelWithOnOff(tlv: TLVReader.decode(bytes)) == command)
    }

    @Test func aNullTransitionTimeIsTheTLVNull() throws {
        let command = MoveToLevelWithOnOff(level: 0, transitionTime: .null, optionsMask: [], optionsOverride: [])
        let bytes: [UInt8] = [0x15, 0x24, 0x00, 0x00, 0x34, 0x01, 0x24, 0x02, 0x00, 0x24, 0x03, 0x00, 0x18]
        #expect(TLVWriter.encode(TLVElement(command.tlvValue())) == bytes)
        #expect(try MoveToLevelWithOnOff(tlv: TLVReader.decode(bytes)).transitionTime == .null)
    }

    @Test func aLevelThatDoesNotFitUInt8IsRejected() {
        let bytes: [UInt8] = [0x15, 0x25, 0x00, 0x00, 0x01, 0x34, 0x01, 0x24, 0x02, 0x00, 0x24, 0x03, 0x00, 0x18]
        #expect(throws: TLVError.inField(0, .integerOutOfRange(value: "256", type: "UInt8"))) {
            try MoveToLevelWithOnOff(tlv: TLVReader.decode(bytes))
        }
    }
}
