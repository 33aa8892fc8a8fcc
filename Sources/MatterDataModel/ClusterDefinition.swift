// Matter Core §7.10 Cluster: what every generated cluster namespace (`enum OnOffCluster`) provides.
///
/// The shape of a generated cluster `XCluster` (see scripts/generate-datamodel.sh):
/// - `id`, `name`, `revision`; enums (`ClusterEnum`), bitmaps (`ClusterBitmap`, the feature map is `Feature`) and
///   structs (TLV-coded) as nested types;
/// - `Attributes.<name>`: an `AttributeDefinition<Value>` per attribute, the global ones included;
/// - `Commands.<Name>`: a `ClusterCommand` struct per command the server accepts, holding its request fields, and a
///   `ClusterCommandResponse` struct per response it generates;
/// - `Events.<Name>`: a `ClusterEvent` struct per event.
///
/// Field rule: `optional` (may be absent) is a Swift `Optional`, `nullable` is `Nullable<T>`, both is `Nullable<T>?`.
/// In fabric-scoped structs the fabric-sensitive fields and the fabric index are optional as well: a client leaves the
/// fabric index out when writing, and a server leaves the sensitive fields out of other fabrics' entries.
public protocol ClusterDefinition {
    static var id: ClusterID { get }
    static var name: String { get }
    static var revision: UInt16 { get }
}
