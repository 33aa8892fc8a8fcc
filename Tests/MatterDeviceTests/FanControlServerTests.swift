import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterTLV
import Testing

struct FanControlServerTests {
    private typealias Attributes = FanControlCluster.Attributes

    @Test func writingFanModeSetsTheSpeed() {
        var harness = ClusterServerHarness(FanControlServer(name: "fan"))
        let before = harness.version
        #expect(harness.write(Attributes.fanMode, .medium) == .success)
        #expect(harness.read(Attributes.percentCurrent) == .unsigned(66))
        #expect(harness.read(Attributes.percentSetting) == .null)
        #expect(harness.version == before &+ 1)
        #expect(harness.logLines == ["[fan] medium 66 %"])
        // §4.4.6.1.1: On is High.
        #expect(harness.write(Attributes.fanMode, .on) == .success)
        #expect(harness.server.fanMode == .high && harness.server.percentCurrent == 100)
        #expect(harness.write(Attributes.fanMode, .off) == .success)
        #expect(harness.server.percentSetting == 0 && harness.server.percentCurrent == 0)
    }

    @Test func writingPercentSettingPicksTheMode() {
        var harness = ClusterServerHarness(FanControlServer(name: "fan"))
        #expect(harness.write(Attributes.percentSetting, .value(20)) == .success)
        #expect(harness.server.fanMode == .low && harness.server.percentCurrent == 20)
        #expect(harness.write(Attributes.percentSetting, .value(67)) == .success)
        #expect(harness.server.fanMode == .high)
    }

    @Test func invalidValuesAreRefusedAndChangeNothing() {
        var harness = ClusterServerHarness(FanControlServer(name: "fan"))
        let before = harness.version
        #expect(harness.write(Attributes.percentSetting, .value(101)) == .constraintError)
        #expect(harness.write(Attributes.percentSetting, .null) == .invalidInState)
        #expect(harness.write(Attributes.fanMode, .auto) == .constraintError)
        #expect(harness.write(Attributes.fanMode, FanControlCluster.FanModeEnum(rawValue: 9)) == .constraintError)
        #expect(harness.version == before)
        #expect(harness.server.fanMode == .off)
    }

    @Test func theSettingSurvivesARestart() throws {
        var harness = ClusterServerHarness(FanControlServer(name: "fan"))
        _ = harness.write(Attributes.percentSetting, .value(45))
        var restored = FanControlServer(name: "fan")
        restored.restore(TLVElement(try #require(harness.server.persistentState)))
        #expect(restored.fanMode == .medium && restored.percentSetting == 45 && restored.percentCurrent == 45)
    }
}
