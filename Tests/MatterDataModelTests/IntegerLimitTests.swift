import Testing

@testable import MatterDataModel

@Suite struct IntegerLimitTests {
    @Test func widthsAndRanges() {
        #expect(IntegerLimit.unsigned(bits: 8).admits(unsigned: 255, knownValuesOnly: true))
        #expect(!IntegerLimit.unsigned(bits: 8).admits(unsigned: 256, knownValuesOnly: false))
        #expect(IntegerLimit.unsigned(bits: 24).admits(unsigned: 0xFF_FFFF, knownValuesOnly: false))
        #expect(!IntegerLimit.unsigned(bits: 24).admits(unsigned: 0x100_0000, knownValuesOnly: false))
        #expect(IntegerLimit.signed(bits: 16).admits(signed: -32768))
        #expect(!IntegerLimit.signed(bits: 16).admits(signed: -32769))
        #expect(!IntegerLimit.signed(bits: 16).admits(unsigned: 32768, knownValuesOnly: false))
        #expect(!IntegerLimit.unsigned(bits: 16).admits(signed: -1))
        #expect(IntegerLimit.range(0...100).admits(unsigned: 100, knownValuesOnly: false))
        #expect(!IntegerLimit.range(0...100).admits(unsigned: 101, knownValuesOnly: false))
        #expect(IntegerLimit.signed(bits: 8).description == "an integer from -128 to 127")
        #expect(IntegerLimit.unsigned(bits: 16).description == "an integer from 0 to 65535")
    }

    @Test func enumsAndBitmapsRefuseUnknownValuesOnlyWhenAsked() {
        let moveMode = IntegerLimit.enumeration(LevelControlCluster.MoveModeEnum.self)
        #expect(moveMode == .enumeration(bits: 8, names: [0: "Up", 1: "Down"]))
        #expect(moveMode.admits(unsigned: 2, knownValuesOnly: false))
        #expect(!moveMode.admits(unsigned: 2, knownValuesOnly: true))
        #expect(!moveMode.admits(unsigned: 256, knownValuesOnly: false))
        #expect(moveMode.description == "one of Up (0), Down (1)")
        let options = IntegerLimit.bitmap(bits: 8, mask: 0x3)
        #expect(options.admits(unsigned: 3, knownValuesOnly: true))
        #expect(!options.admits(unsigned: 4, knownValuesOnly: true))
        #expect(options.admits(unsigned: 4, knownValuesOnly: false))
    }

    /// What the generator wrote for LevelControl.Move: each field's limit from its IDL type.
    @Test func theGeneratedFieldsCarryTheirLimits() throws {
        let fields = try #require(LevelControlCluster.info.commandFields[LevelControlCluster.Commands.Move.id])
        #expect(
            fields.map(\.limit) == [
                .enumeration(LevelControlCluster.MoveModeEnum.self), .unsigned(bits: 8), .bitmap(bits: 8, mask: 0x3),
                .bitmap(bits: 8, mask: 0x3),
            ])
        let onLevel = try #require(
            LevelControlCluster.info.writableAttributes[LevelControlCluster.Attributes.onLevel.id])
        #expect(onLevel.limit == .unsigned(bits: 8))
    }
}

@Suite struct NearMissTests {
    @Test func aTypoFindsTheNameMeantAndAnythingElseNothing() {
        let names = ["OnOff", "LevelControl", "ColorControl", "Thermostat"]
        #expect(NearMiss.closest(to: "onof", among: names) == "OnOff")
        #expect(NearMiss.closest(to: "LevelControll", among: names) == "LevelControl")
        #expect(NearMiss.closest(to: "Thermostst", among: names) == "Thermostat")
        #expect(NearMiss.closest(to: "Lights", among: names) == nil)
        #expect(NearMiss.suggestion(for: "Togle", among: ["Toggle", "On"]) == " (did you mean Toggle?)")
        #expect(NearMiss.suggestion(for: "xyz", among: ["Toggle", "On"]) == "")
    }
}
