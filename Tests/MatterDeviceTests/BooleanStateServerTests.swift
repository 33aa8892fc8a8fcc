import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterTLV
import Testing

struct BooleanStateServerTests {
    @Test func everyFlipIsReportedAndRecordedAsStateChange() throws {
        var harness = ClusterServerHarness(BooleanStateServer(name: "contact-sensor"))
        var random = SimulationRandom(seed: 9)
        var flips = 0
        for _ in 0..<100 {
            let before = harness.server.stateValue
            harness.server.simulate(in: &harness.node, endpoint: 1, random: &random)
            if harness.server.stateValue != before { flips += 1 }
        }
        #expect(flips > 0 && flips < 100)
        #expect(harness.node.changedPaths.count == flips)
        let recorded = try harness.node.events.map {
            try BooleanStateCluster.Events.StateChange(tlv: try #require($0.data)).stateValue
        }
        // Starting closed (true), the recorded states alternate, the last being the current one.
        #expect(recorded.count == flips)
        #expect(recorded == (0..<flips).map { $0 % 2 == 1 })
        #expect(harness.read(BooleanStateCluster.Attributes.stateValue) == .bool(recorded.last ?? true))
    }
}
