import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §1.5 On/Off cluster, server: the OnOff attribute with Off, On and Toggle (no
// Lighting feature, so no timed on/off or scenes). The generated cluster defines no events, so none are recorded.
// It tells the endpoint's other clusters (Level Control) when it switches, and follows their "with On/Off" commands.
public struct OnOffServer: ClusterServer {
    private typealias Cluster = OnOffCluster

    public private(set) var isOn = false
    /// The console name of what it switches ("light" prints "[light] ON").
    public let name: String

    public init(name: String) {
        self.name = name
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [AttributeDescription(Cluster.Attributes.onOff)],
            acceptedCommands: [
                CommandDescription(Cluster.Commands.Off.self), CommandDescription(Cluster.Commands.On.self),
                CommandDescription(Cluster.Commands.Toggle.self),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        attribute == Cluster.Attributes.onOff.id.rawValue ? .success(.bool(isOn)) : .failure(.unsupportedAttribute)
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        let wanted: Bool
        switch command {
        case Cluster.Commands.Off.id.rawValue: wanted = false
        case Cluster.Commands.On.id.rawValue: wanted = true
        case Cluster.Commands.Toggle.id.rawValue: wanted = !isOn
        default: return .status(.unsupportedCommand)
        }
        // A command is acted on (and logged) even when the state is already what it asks for.
        node.effects.append(.log("[\(name)] \(wanted ? "ON" : "OFF")"))
        guard wanted != isOn else { return .success }
        switchTo(wanted, in: &node, endpoint: request.endpoint)
        node.signals.append((request.endpoint, .onOff(wanted)))
        return .success
    }

    public mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16) {
        guard case .onOff(let on) = signal, on != isOn else { return }
        node.effects.append(.log("[\(name)] \(on ? "ON" : "OFF")"))
        switchTo(on, in: &node, endpoint: endpoint)
    }

    private mutating func switchTo(_ on: Bool, in node: inout NodeState, endpoint: UInt16) {
        isOn = on
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Cluster.Attributes.onOff.id.rawValue])
        node.effects.append(.persistSoon)
    }

    public var persistentState: TLVValue? { .bool(isOn) }

    public mutating func restore(_ state: TLVElement) {
        if case .bool(let value) = state.value { isOn = value }
    }
}
