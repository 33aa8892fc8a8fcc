import HomeRecords
import MatterDataModel
import MatterInteraction
import Testing

@testable import HomeHub

@Suite(.timeLimit(.minutes(1))) struct NodeConnectionCommandsTests {
    private static let on = CommandPathIB(endpoint: 1, cluster: 0x0006, command: 0x01)
    private static let off = CommandPathIB(endpoint: 1, cluster: 0x0006, command: 0x00)
    private static let toggle = CommandPathIB(endpoint: 1, cluster: 0x0006, command: 0x02)
    /// A max interval no loaded machine outlasts between two commands: these tests do not watch liveness, and a
    /// subscription lost meanwhile drops the session a command is using (a clean-clone CI run lost one at 5 s).
    private static let steadyMaxInterval: UInt16 = 60

    @Test func toggleFallsBackToOnAndOffFromTheCachedStateWhenToggleIsNotListed() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight(toggle: .unlisted)
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: Self.steadyMaxInterval)
        try await connection.connected()
        #expect(await connection.supports(OnOffCluster.Commands.Toggle.self, endpoint: 1) == false)
        #expect(await connection.supports(OnOffCluster.Commands.On.self, endpoint: 1) == true)
        #expect(await connection.supports(OnOffCluster.Commands.Toggle.self, endpoint: 0) == nil)
        var events = await connection.events().makeAsyncIterator()
        await events.skipSnapshot()

        #expect(try await connection.toggle(endpoint: 1) == .on)
        #expect(await events.nextAttributes() == [LightDataModel.onOffPath])
        #expect(try await connection.toggle(endpoint: 1) == .off)
        #expect(await events.nextAttributes() == [LightDataModel.onOffPath])
        #expect(await light.model.invoked == [Self.on, Self.off])
        #expect(await light.model.isOn == false)
        await fixture.stop([connection], [light])
    }

    @Test func toggleFallsBackWhenTheNodeRefusesAToggleItLists() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight(toggle: .listedButRefused)
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: Self.steadyMaxInterval)
        try await connection.connected()
        #expect(await connection.supports(OnOffCluster.Commands.Toggle.self, endpoint: 1) == true)
        #expect(try await connection.toggle(endpoint: 1) == .on)
        #expect(await light.model.invoked == [Self.toggle, Self.on])
        #expect(await light.model.isOn)
        await fixture.stop([connection], [light])
    }

    @Test func toggleSendsToggleWhenAccepted() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight(toggle: .accepted)
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: Self.steadyMaxInterval)
        #expect(try await connection.toggle(endpoint: 1) == .toggle)
        #expect(await light.model.invoked == [Self.toggle])
        #expect(await light.model.isOn)
        await fixture.stop([connection], [light])
    }

    @Test func invokeReusesTheSessionAndTheReportFollows() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight()
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: Self.steadyMaxInterval)
        try await connection.connected()
        var events = await connection.events().makeAsyncIterator()
        await events.skipSnapshot()
        try await connection.invoke(
            LevelControlCluster.Commands.MoveToLevelWithOnOff(
                level: 200, transitionTime: .value(0), optionsMask: [], optionsOverride: []), endpoint: 1)
        #expect(await events.nextAttributes() == [LightDataModel.onOffPath, LightDataModel.levelPath])
        #expect(try await connection.value(LevelControlCluster.Attributes.currentLevel, endpoint: 1) == .value(200))
        #expect(await fixture.establishments.values == [1])
        await fixture.stop([connection], [light])
    }

    @Test func invokeErrorsAreNamed() async throws {
        let fixture = try LiveConnectionFixture()
        let light = try LoopbackLight()
        await light.start()
        // Long enough that a loaded machine keeps the subscription between the invokes; the power-off below is
        // noticed within it.
        let connection = await fixture.connect(to: light, maxInterval: 5)
        await #expect {
            try await connection.invoke(
                LevelControlCluster.Commands.MoveToLevel(
                    level: 1, transitionTime: .value(0), optionsMask: [], optionsOverride: []), endpoint: 1)
        } throws: { error in
            "\(error)"
                == "invoke LevelControl.MoveToLevel on endpoint 1: UNSUPPORTED_COMMAND (the device does not implement this command)"
        }
        await #expect {
            try await connection.invoke(
                LevelControlCluster.Commands.MoveToLevelWithOnOff(
                    level: 255, transitionTime: .value(0), optionsMask: [], optionsOverride: []), endpoint: 1)
        } throws: { error in
            "\(error)".hasPrefix("invoke LevelControl.MoveToLevelWithOnOff on endpoint 1: INVALID_COMMAND")
        }

        // Online first (a loaded machine may have let the first subscription time out; its session answered the
        // commands above all the same), then the subscription lost.
        var events = await connection.events().makeAsyncIterator()
        _ = await events.next(where: { if case .connectivity(.online) = $0 { true } else { false } })
        await light.powerOff()
        _ = await events.next(where: { if case .connectivity(.offline) = $0 { true } else { false } })
        await #expect {
            try await connection.invoke(OnOffCluster.Commands.On(), endpoint: 1)
        } throws: { error in
            "\(error)".hasPrefix("node 0000000000000001 is unreachable: subscription lost: no report for ")
        }
        await fixture.stop([connection], [light])
    }
}
