import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §2.6 Relative Humidity Measurement cluster, server: a simulated room humidity that
// drifts by a random step within its range on every simulation step.
public struct RelativeHumidityMeasurementServer: SimulatedCluster {
    private typealias Cluster = RelativeHumidityMeasurementCluster
    private typealias Attributes = RelativeHumidityMeasurementCluster.Attributes

    /// In 0.01 %.
    public private(set) var measuredValue: UInt16
    /// The console name ("[humidity-sensor] 48.50 %").
    public let name: String

    private static let range = DeviceConstants.humidityRange

    public init(name: String) {
        self.name = name
        measuredValue = (Self.range.lowerBound + Self.range.upperBound) / 2
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Attributes.measuredValue), AttributeDescription(Attributes.minMeasuredValue),
                AttributeDescription(Attributes.maxMeasuredValue),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.measuredValue.id.rawValue: .success(.unsigned(UInt64(measuredValue)))
        case Attributes.minMeasuredValue.id.rawValue: .success(.unsigned(UInt64(Self.range.lowerBound)))
        case Attributes.maxMeasuredValue.id.rawValue: .success(.unsigned(UInt64(Self.range.upperBound)))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func simulate(in node: inout NodeState, endpoint: UInt16, random: inout SimulationRandom) {
        let drift = Int(DeviceConstants.humidityDrift)
        let moved = Int(measuredValue) + Int.random(in: -drift...drift, using: &random)
        let next = UInt16(min(max(moved, Int(Self.range.lowerBound)), Int(Self.range.upperBound)))
        guard next != measuredValue else { return }
        measuredValue = next
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Attributes.measuredValue.id.rawValue])
        node.effects.append(.log("[\(name)] \(next / 100).\(next % 100 < 10 ? "0" : "")\(next % 100) %"))
    }
}
