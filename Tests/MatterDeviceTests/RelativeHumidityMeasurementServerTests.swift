import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import Testing

struct RelativeHumidityMeasurementServerTests {
    @Test func theHumidityDriftsWithinItsRange() {
        var harness = ClusterServerHarness(RelativeHumidityMeasurementServer(name: "humidity-sensor"))
        var random = SimulationRandom(seed: 3)
        var previous = harness.server.measuredValue
        var changes = 0
        for _ in 0..<500 {
            harness.server.simulate(in: &harness.node, endpoint: 1, random: &random)
            let value = harness.server.measuredValue
            #expect(DeviceConstants.humidityRange.contains(value))
            #expect(abs(Int(value) - Int(previous)) <= Int(DeviceConstants.humidityDrift))
            if value != previous { changes += 1 }
            previous = value
        }
        #expect(changes > 0)
        #expect(harness.node.changedPaths.count == changes)
        #expect(
            harness.read(RelativeHumidityMeasurementCluster.Attributes.measuredValue) == .unsigned(UInt64(previous)))
    }
}
