import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §1.13 Switch cluster, server, as a momentary push button (MomentarySwitch and
// MomentarySwitchRelease): a simulation step now and then presses it (InitialPress, CurrentPosition 1); the next
// step releases it (ShortRelease, CurrentPosition 0).
public struct SwitchServer: SimulatedCluster {
    private typealias Cluster = SwitchCluster
    private typealias Events = SwitchCluster.Events

    public private(set) var currentPosition: UInt8 = 0
    /// The console name ("[switch-panel] button 2 pressed").
    public let name: String

    public init(name: String) {
        self.name = name
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            featureMap: Cluster.Feature([.momentarySwitch, .momentarySwitchRelease]).rawValue,
            attributes: [
                AttributeDescription(Cluster.Attributes.numberOfPositions),
                AttributeDescription(Cluster.Attributes.currentPosition),
            ],
            events: [Events.InitialPress.id.rawValue, Events.ShortRelease.id.rawValue])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        // §1.13.5.1: a push button has two positions, released (0) and pressed (1).
        case Cluster.Attributes.numberOfPositions.id.rawValue: .success(.unsigned(2))
        case Cluster.Attributes.currentPosition.id.rawValue: .success(.unsigned(UInt64(currentPosition)))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func simulate(in node: inout NodeState, endpoint: UInt16, random: inout SimulationRandom) {
        if currentPosition == 1 {
            currentPosition = 0
            node.record(Events.ShortRelease(previousPosition: 1), endpoint: endpoint)
            node.effects.append(.log("[\(name)] button \(endpoint) released"))
            node.markChanged(
                endpoint: endpoint, cluster: id, attributes: [Cluster.Attributes.currentPosition.id.rawValue])
        } else if random.next(upperBound: DeviceConstants.simulatedEventOdds) == 0 {
            press(in: &node, endpoint: endpoint)
        }
    }

    /// Pressed by hand: as a simulation step presses it (a button held down stays so, with no new event).
    public mutating func perform(_ action: DeviceAction, in node: inout NodeState, endpoint: UInt16) -> Bool {
        guard action == .press else { return false }
        if currentPosition == 0 { press(in: &node, endpoint: endpoint) }
        return true
    }

    private mutating func press(in node: inout NodeState, endpoint: UInt16) {
        currentPosition = 1
        node.record(Events.InitialPress(newPosition: 1), endpoint: endpoint)
        node.effects.append(.log("[\(name)] button \(endpoint) pressed"))
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Cluster.Attributes.currentPosition.id.rawValue])
    }
}
