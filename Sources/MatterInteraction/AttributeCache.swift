import MatterTLV

// Matter Core §8.5 / §10.6.4: the attribute values of one node as its reports leave them, kept current by one
// wildcard subscription, with the data version of each cluster instance for the filters of the next subscription.
public struct AttributeCache: Hashable, Sendable {
    private var values: [ConcreteAttributePath: TLVElement] = [:]
    private var dataVersions: [ConcreteClusterPath: UInt32] = [:]

    public init() {}

    public func value(endpoint: UInt16, cluster: UInt32, attribute: UInt32) -> TLVElement? {
        values[ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)]
    }

    public func dataVersion(endpoint: UInt16, cluster: UInt32) -> UInt32? {
        dataVersions[ConcreteClusterPath(endpoint: endpoint, cluster: cluster)]
    }

    /// Every cached attribute path, in endpoint, cluster, attribute order.
    public var paths: [ConcreteAttributePath] {
        values.keys.sorted { ($0.endpoint, $0.cluster, $0.attribute) < ($1.endpoint, $1.cluster, $1.attribute) }
    }

    /// One filter per cluster instance whose version is known, to send with a resubscription so that the publisher
    /// leaves out clusters that did not change; in endpoint, cluster order.
    public var dataVersionFilters: [DataVersionFilterIB] {
        dataVersions
            .sorted { ($0.key.endpoint, $0.key.cluster) < ($1.key.endpoint, $1.key.cluster) }
            .map {
                DataVersionFilterIB(
                    path: ClusterPathIB(endpoint: $0.key.endpoint, cluster: $0.key.cluster), dataVersion: $0.value)
            }
    }

    /// Applies the attribute reports of one whole report, in order, and returns the paths whose value differs
    /// afterwards. Data without a list index replaces the value; data with a null list index appends one item to
    /// the list (§10.6.4.3: a long list comes as a replacement followed by appends); data with a numeric index
    /// replaces that item. A status report removes the value. Reports with wildcard paths are ignored.
    @discardableResult
    public mutating func apply(_ reports: [AttributeReportIB]) -> Set<ConcreteAttributePath> {
        var before: [ConcreteAttributePath: TLVElement?] = [:]
        for report in reports {
            guard let path = report.path.concrete else { continue }
            if before[path] == nil {
                before[path] = .some(values[path])
            }
            switch report {
            case .status:
                values[path] = nil
            case .data(let data):
                if let version = data.dataVersion {
                    dataVersions[path.clusterPath] = version
                }
                apply(data, at: path)
            }
        }
        return Set(before.compactMap { path, old in values[path] == old ? nil : path })
    }

    /// Forgets the values and data versions of every endpoint not in `kept` (endpoints the node no longer has), and
    /// returns the paths forgotten.
    public mutating func keepOnly(endpoints kept: Set<UInt16>) -> Set<ConcreteAttributePath> {
        let gone = Set(values.keys.filter { !kept.contains($0.endpoint) })
        for path in gone { values[path] = nil }
        dataVersions = dataVersions.filter { kept.contains($0.key.endpoint) }
        return gone
    }

    private mutating func apply(_ data: AttributeDataIB, at path: ConcreteAttributePath) {
        let item = TLVElement(data.data.value)
        switch data.path.listIndex {
        case nil:
            values[path] = item
        case .append:
            guard case .array(var items)? = values[path]?.value else {
                values[path] = TLVElement(.array([item]))
                return
            }
            items.append(item)
            values[path] = TLVElement(.array(items))
        case .item(let index):
            guard case .array(var items)? = values[path]?.value, Int(index) < items.count else { return }
            items[Int(index)] = item
            values[path] = TLVElement(.array(items))
        }
    }
}
