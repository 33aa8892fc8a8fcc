import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterTLV
import Testing

struct SwitchServerTests {
    @Test func aPressIsFollowedByAShortReleaseOnTheNextStep() throws {
        var harness = ClusterServerHarness(SwitchServer(name: "switch-panel"))
        var random = SimulationRandom(seed: 1)
        var steps = 0
        while harness.server.currentPosition == 0, steps < 100 {
            harness.server.simulate(in: &harness.node, endpoint: 1, random: &random)
            steps += 1
        }
        #expect(harness.read(SwitchCluster.Attributes.currentPosition) == .unsigned(1))
        harness.server.simulate(in: &harness.node, endpoint: 1, random: &random)
        #expect(harness.server.currentPosition == 0)
        let events = harness.node.events
        #expect(
            events.map(\.path.event) == [
                SwitchCluster.Events.InitialPress.id.rawValue, SwitchCluster.Events.ShortRelease.id.rawValue,
            ])
        #expect(events.map(\.path.endpoint) == [1, 1])
        #expect(events.map(\.eventNumber) == [1, 2])
        let press = try SwitchCluster.Events.InitialPress(tlv: try #require(events.first?.data))
        let release = try SwitchCluster.Events.ShortRelease(tlv: try #require(events.last?.data))
        #expect(press.newPosition == 1 && release.previousPosition == 1)
        #expect(harness.node.changedPaths.count == 2)
        #expect(harness.logLines == ["[switch-panel] button 1 pressed", "[switch-panel] button 1 released"])
    }
}
