import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §2.3 Temperature Measurement cluster, server: a simulated room temperature that drifts
// by a random step within its range on every simulation step.
public struct TemperatureMeasurementServer: SimulatedCluster {
    private typealias Cluster = TemperatureMeasurementCluster
    private typealias Attributes = TemperatureMeasurementCluster.Attributes

    /// In 0.01 °C.
    public private(set) var measuredValue: Int16
    /// The console name ("[temperature-sensor] 21.25 °C").
    public let name: String

    private static let range = DeviceConstants.temperatureRange

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
        case Attributes.measuredValue.id.rawValue: .success(.signed(Int64(measuredValue)))
        case Attributes.minMeasuredValue.id.rawValue: .success(.signed(Int64(Self.range.lowerBound)))
        case Attributes.maxMeasuredValue.id.rawValue: .success(.signed(Int64(Self.range.upperBound)))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func simulate(in node: inout NodeState, endpoint: UInt16, random: inout SimulationRandom) {
        let drift = DeviceConstants.temperatureDrift
        let next = min(
            max(measuredValue + Int16.random(in: -drift...drift, using: &random), Self.range.lowerBound),
            Self.range.upperBound)
        guard next != measuredValue else { return }
        measuredValue = next
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Attributes.measuredValue.id.rawValue])
        let sign = next < 0 ? "-" : ""
        let magnitude = abs(Int(next))
        node.effects.append(
            .log("[\(name)] \(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100) °C"))
    }
}
