import Synchronization

/// One node's sorted attribute paths, shared by every `AttributeCache` whose node has the same ones. A hub keeps a
/// cache per node for as long as it runs, and a home's devices of one model have the same paths: a thousand lights'
/// indexes are one list (a dimmable light's 147 paths are 1.7 KiB) instead of a thousand.
///
/// The table holds each list weakly: a list lives as long as a cache shares it, so the lists of layouts no node has
/// any more (a bridge that dropped an endpoint, a device updated) do not pile up.
final class AttributePathList: Sendable {
    let paths: [ConcreteAttributePath]

    private init(_ paths: [ConcreteAttributePath]) {
        self.paths = paths
    }

    private struct Reference {
        weak var list: AttributePathList?
    }

    /// By the hash of the paths; a bucket holds every list of that hash, live or gone.
    private static let table = Mutex<[Int: [Reference]]>([:])

    /// The shared list of these paths: one already in the table, or a new one that others will share from now on.
    static func shared(_ paths: [ConcreteAttributePath]) -> AttributePathList {
        let hash = paths.hashValue
        return table.withLock { table in
            var bucket = table[hash, default: []]
            bucket.removeAll { $0.list == nil }
            if let found = bucket.lazy.compactMap(\.list).first(where: { $0.paths == paths }) {
                table[hash] = bucket
                return found
            }
            let list = AttributePathList(paths)
            bucket.append(Reference(list: list))
            table[hash] = bucket
            return list
        }
    }

    /// Whether a list of these paths is live: shared by some cache.
    static func holds(_ paths: [ConcreteAttributePath]) -> Bool {
        table.withLock { table in table[paths.hashValue]?.contains { $0.list?.paths == paths } ?? false }
    }
}
