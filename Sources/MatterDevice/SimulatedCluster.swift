import MatterNode

/// A virtual device's cluster server that acts on its own (`Simulation`) or under a person's hand (`DeviceAction`);
/// the node's standard servers do neither.
public protocol SimulatedCluster: ClusterServer {
    /// The device's simulation step: a sensor drifts, a contact flips, a button is pressed.
    mutating func simulate(in node: inout NodeState, endpoint: UInt16, random: inout SimulationRandom)
    /// A person's action on the device; true when this cluster has that control.
    mutating func perform(_ action: DeviceAction, in node: inout NodeState, endpoint: UInt16) -> Bool
}

extension SimulatedCluster {
    public mutating func simulate(in node: inout NodeState, endpoint: UInt16, random: inout SimulationRandom) {}

    public mutating func perform(_ action: DeviceAction, in node: inout NodeState, endpoint: UInt16) -> Bool { false }
}

extension NodeDataModel {
    /// One simulation step: every simulated cluster, in endpoint and cluster order, may act on its own.
    mutating func simulate(random: inout SimulationRandom) {
        updateClusters { endpoint, cluster, node in
            guard var simulated = cluster as? any SimulatedCluster else { return }
            simulated.simulate(in: &node, endpoint: endpoint, random: &random)
            cluster = simulated
        }
    }

    /// A person's action on `endpoint`, or on every endpoint when nil; false when no cluster there has that control.
    mutating func perform(_ action: DeviceAction, on endpoint: UInt16?) -> Bool {
        var performed = false
        updateClusters(on: endpoint) { endpoint, cluster, node in
            guard var simulated = cluster as? any SimulatedCluster else { return }
            performed = simulated.perform(action, in: &node, endpoint: endpoint) || performed
            cluster = simulated
        }
        return performed
    }
}
