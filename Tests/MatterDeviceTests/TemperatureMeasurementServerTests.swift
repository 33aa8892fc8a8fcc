import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import Testing

struct TemperatureMeasurementServerTests {
    private func drift(
        seed: UInt64, steps: Int
    ) -> (values: [Int16], harness: ClusterServerHarness<TemperatureMeasurementServer>) {
        var harness = ClusterServerHarness(TemperatureMeasurementServer(name: "temperature-sensor"))
        var random = SimulationRandom(seed: seed)
        var values: [Int16] = []
        for _ in 0..<steps {
            harness.server.simulate(in: &harness.node, endpoint: 1, random: &random)
            values.append(harness.server.measuredValue)
        }
        return (values, harness)
    }

    @Test func theTemperatureDriftsWithinItsRangeAndReportsEachChange() {
        let start = TemperatureMeasurementServer(name: "t").measuredValue
        let (values, harness) = drift(seed: 7, steps: 500)
        #expect(values.allSatisfy { DeviceConstants.temperatureRange.contains($0) })
        let steps = zip([start] + values, values)
        #expect(steps.allSatisfy { abs(Int($1) - Int($0)) <= Int(DeviceConstants.temperatureDrift) })
        let changes = steps.filter { $0 != $1 }.count
        #expect(changes > 0)
        #expect(harness.node.changedPaths.count == changes)
        #expect(harness.version == TemperatureMeasurementServerTests.initialVersion &+ UInt32(changes))
        #expect(
            harness.read(TemperatureMeasurementCluster.Attributes.measuredValue) == .signed(Int64(values.last ?? 0)))
        #expect(harness.logLines.count == changes)
    }

    @Test func oneSeedReplaysTheSameDrift() {
        #expect(drift(seed: 42, steps: 50).values == drift(seed: 42, steps: 50).values)
        #expect(drift(seed: 42, steps: 50).values != drift(seed: 43, steps: 50).values)
    }

    private static let initialVersion = NodeFixture.node().dataVersion(
        of: ConcreteClusterPath(endpoint: 1, cluster: TemperatureMeasurementCluster.id.rawValue))
}
