import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §1.7 Boolean State cluster, server, as a contact sensor: StateValue true means the
// contact is closed. A simulation step opens or closes it now and then (`DeviceConstants.simulatedEventOdds`), with
// the StateChange event.
public struct BooleanStateServer: SimulatedCluster {
    private typealias Cluster = BooleanStateCluster

    public private(set) var stateValue = true
    /// The console name ("[contact-sensor] open").
    public let name: String

    public init(name: String) {
        self.name = name
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [AttributeDescription(Cluster.Attributes.stateValue)],
            events: [Cluster.Events.StateChange.id.rawValue])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        attribute == Cluster.Attributes.stateValue.id.rawValue
            ? .success(.bool(stateValue)) : .failure(.unsupportedAttribute)
    }

    public mutating func simulate(in node: inout NodeState, endpoint: UInt16, random: inout SimulationRandom) {
        guard random.next(upperBound: DeviceConstants.simulatedEventOdds) == 0 else { return }
        set(closed: !stateValue, in: &node, endpoint: endpoint)
    }

    /// Opened or closed by hand; a contact already so stays, with no event.
    public mutating func perform(_ action: DeviceAction, in node: inout NodeState, endpoint: UInt16) -> Bool {
        guard case .contact(let closed) = action else { return false }
        if closed != stateValue { set(closed: closed, in: &node, endpoint: endpoint) }
        return true
    }

    private mutating func set(closed: Bool, in node: inout NodeState, endpoint: UInt16) {
        stateValue = closed
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Cluster.Attributes.stateValue.id.rawValue])
        node.record(Cluster.Events.StateChange(stateValue: stateValue), endpoint: endpoint)
        node.effects.append(.log("[\(name)] \(stateValue ? "closed" : "open")"))
    }
}
