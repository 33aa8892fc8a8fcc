import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterTLV
import Testing

struct ColorControlServerTests {
    private typealias Commands = ColorControlCluster.Commands

    private func harness(_ features: ColorControlServer.Feature) -> ClusterServerHarness<ColorControlServer> {
        var harness = ClusterServerHarness(ColorControlServer(name: "light", features: features))
        harness.deliver(.onOff(true))
        return harness
    }

    @Test func moveToColorTemperatureSetsMiredsWithinThePhysicalRange() {
        var harness = harness(.colorTemperature)
        let before = harness.version
        #expect(
            harness.invoke(
                Commands.MoveToColorTemperature(
                    colorTemperatureMireds: 370, transitionTime: 0, optionsMask: [], optionsOverride: []))
                == .success)
        #expect(harness.read(ColorControlCluster.Attributes.colorTemperatureMireds) == .unsigned(370))
        #expect(harness.version == before &+ 1)
        #expect(harness.logLines.contains("[light] 370 mireds"))
        _ = harness.invoke(
            Commands.MoveToColorTemperature(
                colorTemperatureMireds: 50, transitionTime: 0, optionsMask: [], optionsOverride: []))
        #expect(harness.server.mireds == 153)
        #expect(
            harness.invoke(
                Commands.MoveToColorTemperature(
                    colorTemperatureMireds: 0xFF00, transitionTime: 0, optionsMask: [], optionsOverride: []))
                == .status(.constraintError))
        _ = harness.invoke(
            Commands.StepColorTemperature(
                stepMode: .up, stepSize: 100, transitionTime: 0, colorTemperatureMinimumMireds: 0,
                colorTemperatureMaximumMireds: 200, optionsMask: [], optionsOverride: []))
        #expect(harness.server.mireds == 200)
        _ = harness.invoke(
            Commands.MoveColorTemperature(
                moveMode: .up, rate: 5, colorTemperatureMinimumMireds: 0, colorTemperatureMaximumMireds: 0,
                optionsMask: [], optionsOverride: []))
        #expect(harness.server.mireds == 500)
    }

    @Test func aColorTemperatureLightDoesNotOfferHueOrXY() {
        let description = ColorControlServer(name: "light", features: .colorTemperature).description
        #expect(description.featureMap == 0x10)
        #expect(!description.acceptedCommands.map(\.id).contains(Commands.MoveToHue.id.rawValue))
        #expect(description.acceptedCommands.map(\.id).contains(Commands.MoveToColorTemperature.id.rawValue))
        #expect(!description.attributes.map(\.id).contains(ColorControlCluster.Attributes.currentX.id.rawValue))
    }

    @Test func hueSaturationAndXYCommandsSwitchTheColorMode() {
        var harness = harness([.hueAndSaturation, .xy, .colorTemperature])
        #expect(harness.server.colorMode == .colorTemperatureMireds)
        #expect(
            harness.invoke(
                Commands.MoveToHueAndSaturation(
                    hue: 120, saturation: 200, transitionTime: 0, optionsMask: [], optionsOverride: []))
                == .success)
        #expect(harness.server.colorMode == .currentHueAndCurrentSaturation)
        #expect(harness.read(ColorControlCluster.Attributes.currentHue) == .unsigned(120))
        #expect(harness.read(ColorControlCluster.Attributes.enhancedColorMode) == .unsigned(0))
        _ = harness.invoke(
            Commands.MoveToSaturation(saturation: 10, transitionTime: 0, optionsMask: [], optionsOverride: []))
        #expect(harness.server.hue == 120 && harness.server.saturation == 10)
        #expect(
            harness.invoke(
                Commands.MoveToColor(
                    colorX: 0x4000, colorY: 0x3000, transitionTime: 0, optionsMask: [], optionsOverride: []))
                == .success)
        #expect(harness.server.colorMode == .currentXAndCurrentY)
        #expect(harness.read(ColorControlCluster.Attributes.currentY) == .unsigned(0x3000))
        #expect(
            harness.node.changedPaths.map(\.attribute).contains(ColorControlCluster.Attributes.colorMode.id.rawValue))
    }

    @Test func outOfRangeColorsAreConstraintErrors() {
        var harness = harness([.hueAndSaturation, .xy, .colorTemperature])
        #expect(
            harness.invoke(
                Commands.MoveToHue(
                    hue: 255, direction: .shortest, transitionTime: 0, optionsMask: [], optionsOverride: []))
                == .status(.constraintError))
        #expect(
            harness.invoke(
                Commands.MoveToHue(
                    hue: 10, direction: ColorControlCluster.DirectionEnum(rawValue: 4), transitionTime: 0,
                    optionsMask: [], optionsOverride: [])) == .status(.constraintError))
        #expect(
            harness.invoke(
                Commands.MoveToColor(colorX: 0xFF00, colorY: 0, transitionTime: 0, optionsMask: [], optionsOverride: [])
            )
                == .status(.constraintError))
        #expect(harness.server.hue == 0 && harness.server.x == 0x5000)
    }

    @Test func aLightThatIsOffKeepsItsColorUnlessExecuteIfOff() {
        var harness = ClusterServerHarness(ColorControlServer(name: "light", features: .colorTemperature))
        _ = harness.invoke(
            Commands.MoveToColorTemperature(
                colorTemperatureMireds: 300, transitionTime: 0, optionsMask: [], optionsOverride: []))
        #expect(harness.server.mireds == 250)
        #expect(harness.write(ColorControlCluster.Attributes.options, .executeIfOff) == .success)
        _ = harness.invoke(
            Commands.MoveToColorTemperature(
                colorTemperatureMireds: 300, transitionTime: 0, optionsMask: [], optionsOverride: []))
        #expect(harness.server.mireds == 300)
    }

    @Test func theColorSurvivesARestart() throws {
        var harness = harness([.hueAndSaturation, .xy, .colorTemperature])
        _ = harness.invoke(
            Commands.MoveToHueAndSaturation(
                hue: 7, saturation: 8, transitionTime: 0, optionsMask: [], optionsOverride: []))
        var restored = ColorControlServer(name: "light", features: [.hueAndSaturation, .xy, .colorTemperature])
        restored.restore(TLVElement(try #require(harness.server.persistentState)))
        #expect(
            restored.colorMode == .currentHueAndCurrentSaturation && restored.hue == 7 && restored.saturation == 8
                && restored.isOn)
    }
}
