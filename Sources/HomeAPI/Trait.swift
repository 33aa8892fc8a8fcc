import HomeEngine
import HubWire
import MatterDataModel

/// A Matter cluster on one endpoint of a device, as the Home API shows it. The generated traits (`OnOffTrait`,
/// `LevelControlTrait`, vendor ones from an app's own package) each have:
/// - `attributes`: every readable attribute, typed, read from the hub's cache (`onOffTrait.attributes.onOff`);
/// - one async method per command the cluster accepts (`on()`, `moveToLevelWithOnOff(level:…)`), throwing a
///   `HomeError` when the device refuses it or cannot be reached.
public protocol Trait: Sendable, Hashable {
    associatedtype Cluster: ClusterDefinition
    var context: TraitContext { get }
    init(context: TraitContext)
}

extension Trait {
    public var metadata: TraitMetadata {
        TraitMetadata(endpoint: context.endpoint, sourceConnectivity: context.sourceConnectivity)
    }

    /// One attribute of the cluster from the hub's cache: nil when the device has not reported it; a `dataLoss` error
    /// naming the path when what it reported does not decode as the attribute's type (`attributes` shows that as nil).
    public func read<Value>(_ attribute: AttributeDefinition<Value>) throws(HomeError) -> Value? {
        guard attribute.cluster == Cluster.id else {
            throw HomeError(
                .invalidArgument,
                "\(attribute.name) is an attribute of \(ClusterRegistry.standard.describe(cluster: attribute.cluster)), "
                    + "not of \(ClusterRegistry.standard.describe(cluster: Cluster.id))")
        }
        return try context.read(attribute)
    }

    /// Whether the device lists the command in the cluster's AcceptedCommandList.
    public func supports<Command: ClusterCommand>(_ command: Command.Type) -> Bool where Command.Cluster == Cluster {
        context.supports(command)
    }
}

/// Where a trait lives and how its data reaches the hub.
public struct TraitMetadata: Sendable, Hashable {
    public let endpoint: UInt16
    public let sourceConnectivity: SourceConnectivity
}
