/// The traits of one device type's endpoint, by type: `traits[OnOffTrait.self]`, or a vendor's own
/// `traits[AcmeClusters.AcmeSprocketTrait.self]`. A trait is there when the endpoint serves its cluster.
public struct TraitCollection: Sendable, Hashable {
    let snapshot: EndpointSnapshot

    /// Whether the endpoint serves the trait's cluster: `traits.contains(Matter.LevelControlTrait.self)`.
    public func contains<T: Trait>(_ type: T.Type) -> Bool {
        snapshot.hasCluster(T.Cluster.id.rawValue)
    }

    public subscript<T: Trait>(_ type: T.Type) -> T? {
        guard contains(type) else { return nil }
        return T(context: TraitContext(snapshot: snapshot, cluster: T.Cluster.id))
    }
}
