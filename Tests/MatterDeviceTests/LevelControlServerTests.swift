import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterTLV
import Testing

struct LevelControlServerTests {
    private typealias Commands = LevelControlCluster.Commands

    private func harness(on: Bool) -> ClusterServerHarness<LevelControlServer> {
        var harness = ClusterServerHarness(LevelControlServer(name: "dimmable-light"))
        if on { harness.deliver(.onOff(true)) }
        return harness
    }

    @Test func moveToLevelSetsTheLevelBumpsTheVersionAndLogs() {
        var harness = harness(on: true)
        let before = harness.version
        #expect(
            harness.invoke(
                Commands.MoveToLevel(level: 127, transitionTime: .null, optionsMask: [], optionsOverride: []))
                == .success)
        #expect(harness.server.currentLevel == 127)
        #expect(harness.read(LevelControlCluster.Attributes.currentLevel) == .unsigned(127))
        #expect(harness.version == before &+ 1)
        #expect(harness.node.changedPaths.map(\.attribute) == [0x0000])
        #expect(harness.logLines.contains("[dimmable-light] level 127"))
    }

    @Test func levelsOutsideTheLightingRangeAreRefusedOrClamped() {
        var harness = harness(on: true)
        #expect(
            harness.invoke(
                Commands.MoveToLevel(level: 255, transitionTime: .null, optionsMask: [], optionsOverride: []))
                == .status(.constraintError))
        // §1.6.6.3: with Lighting, MinLevel is 1, so 0 means the lowest level.
        #expect(
            harness.invoke(Commands.MoveToLevel(level: 0, transitionTime: .null, optionsMask: [], optionsOverride: []))
                == .success)
        #expect(harness.server.currentLevel == 1)
        #expect(harness.write(LevelControlCluster.Attributes.onLevel, .value(255)) == .constraintError)
        #expect(
            harness.write(LevelControlCluster.Attributes.options, [.executeIfOff, .coupleColorTempToLevel]) == .success)
        #expect(
            harness.write(LevelControlCluster.Attributes.options, LevelControlCluster.OptionsBitmap(rawValue: 0x80))
                == .constraintError)
    }

    @Test func anEndpointThatIsOffIgnoresPlainMovesUnlessExecuteIfOff() {
        var harness = harness(on: false)
        _ = harness.invoke(Commands.MoveToLevel(level: 50, transitionTime: .null, optionsMask: [], optionsOverride: []))
        #expect(harness.server.currentLevel == 254)
        _ = harness.invoke(
            Commands.MoveToLevel(
                level: 50, transitionTime: .null, optionsMask: .executeIfOff, optionsOverride: .executeIfOff))
        #expect(harness.server.currentLevel == 50)
    }

    @Test func withOnOffCommandsSwitchTheEndpoint() {
        var harness = harness(on: false)
        #expect(
            harness.invoke(
                Commands.MoveToLevelWithOnOff(level: 80, transitionTime: .null, optionsMask: [], optionsOverride: []))
                == .success)
        #expect(harness.server.currentLevel == 80)
        #expect(harness.node.signals.map(\.signal) == [.onOff(true)])
        harness.deliver(.onOff(true))
        harness.node.signals = []
        // Stepping down to MinLevel turns it off.
        _ = harness.invoke(
            Commands.StepWithOnOff(
                stepMode: .down, stepSize: 200, transitionTime: .null, optionsMask: [], optionsOverride: []))
        #expect(harness.server.currentLevel == 1)
        #expect(harness.node.signals.map(\.signal) == [.onOff(false)])
    }

    @Test func moveGoesToTheBoundAndStepStaysInRange() {
        var harness = harness(on: true)
        _ = harness.invoke(Commands.Move(moveMode: .down, rate: .value(10), optionsMask: [], optionsOverride: []))
        #expect(harness.server.currentLevel == 1)
        _ = harness.invoke(
            Commands.Step(stepMode: .up, stepSize: 100, transitionTime: .null, optionsMask: [], optionsOverride: []))
        #expect(harness.server.currentLevel == 101)
        _ = harness.invoke(
            Commands.Step(stepMode: .up, stepSize: 200, transitionTime: .null, optionsMask: [], optionsOverride: []))
        #expect(harness.server.currentLevel == 254)
        #expect(
            harness.invoke(
                Commands.Move(
                    moveMode: LevelControlCluster.MoveModeEnum(rawValue: 2), rate: .null, optionsMask: [],
                    optionsOverride: []))
                == .status(.constraintError))
        #expect(
            harness.invoke(Commands.Move(moveMode: .up, rate: .value(0), optionsMask: [], optionsOverride: []))
                == .status(.invalidCommand))
        #expect(harness.invoke(Commands.Stop(optionsMask: [], optionsOverride: [])) == .success)
    }

    @Test func turningOnGoesToOnLevel() {
        var harness = harness(on: false)
        #expect(harness.write(LevelControlCluster.Attributes.onLevel, .value(42)) == .success)
        harness.deliver(.onOff(true))
        #expect(harness.server.currentLevel == 42)
    }

    @Test func theLevelSurvivesARestartAndStartUpCurrentLevelOverridesIt() throws {
        var harness = harness(on: true)
        _ = harness.invoke(Commands.MoveToLevel(level: 99, transitionTime: .null, optionsMask: [], optionsOverride: []))
        var restored = LevelControlServer(name: "dimmable-light")
        restored.restore(TLVElement(try #require(harness.server.persistentState)))
        #expect(restored.currentLevel == 99 && restored.isOn)
        #expect(harness.write(LevelControlCluster.Attributes.startUpCurrentLevel, .value(10)) == .success)
        restored.restore(TLVElement(try #require(harness.server.persistentState)))
        #expect(restored.currentLevel == 10)
    }
}
