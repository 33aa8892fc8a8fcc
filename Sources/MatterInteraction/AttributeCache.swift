import MatterTLV

// Matter Core §8.5 / §10.6.4: the attribute values of one node as its reports leave them, kept current by one
// wildcard subscription, with the data version of each cluster instance for the filters of the next subscription.
//
// Compact, because a hub keeps one per node for as long as it runs: each value is kept as the TLV it was reported
// in (anonymous tag), one after the other in a single byte buffer, with a path-sorted index into it; a value is
// decoded when it is read. A dimmable light's 147 attributes cost about what their encoding does, instead of a tree
// of elements and a hash table. The index's paths are shared by every cache whose node has the same ones
// (`AttributePathList`): a home's lights of one model keep one list between them.
public struct AttributeCache: Hashable, Sendable {
    /// Where one attribute's encoded value lies in `bytes`.
    private struct Span: Hashable, Sendable {
        var offset: UInt32
        var length: UInt32
    }

    /// Every cached attribute path, in endpoint, cluster, attribute order; `spans[i]` is where the value of
    /// `paths[i]` lies.
    public private(set) var paths: [ConcreteAttributePath] = []
    private var spans: [Span] = []
    /// The shared list `paths` is, while it is one: holding it keeps it in `AttributePathList`'s table. A change of
    /// paths lets go of it (the array is then copied, once, and is this cache's own).
    private var sharedPaths: AttributePathList?
    private var bytes: [UInt8] = []
    /// Bytes of `bytes` no entry points at any more (a value replaced by one of another length).
    private var unused = 0
    /// Sorted by endpoint, cluster.
    private var dataVersions: [(path: ConcreteClusterPath, version: UInt32)] = []

    public init() {}

    public func value(endpoint: UInt16, cluster: UInt32, attribute: UInt32) -> TLVElement? {
        let path = ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)
        guard case .found(let index) = search(path) else { return nil }
        // Encoded here from a decoded element, so it decodes; a failure would be a bug, seen as no value.
        return try? TLVReader.decode(Array(encoded(spans[index])))
    }

    public func dataVersion(endpoint: UInt16, cluster: UInt32) -> UInt32? {
        let path = ConcreteClusterPath(endpoint: endpoint, cluster: cluster)
        return dataVersions.first { $0.path == path }?.version
    }

    /// The bytes the cache's four buffers hold (their capacity, with each one's 32-byte array header): what one node's
    /// cache costs, before the allocator's own overhead, with its path list counted whole even when it is shared.
    public var allocatedBytes: Int {
        let header = 32
        return 4 * header + paths.capacity * MemoryLayout<ConcreteAttributePath>.stride
            + spans.capacity * MemoryLayout<Span>.stride + bytes.capacity
            + dataVersions.capacity * MemoryLayout<(path: ConcreteClusterPath, version: UInt32)>.stride
    }

    /// Whether this cache's path list is the very one `other`'s is (shared, not only equal).
    func sharesPaths(with other: AttributeCache) -> Bool {
        paths.withUnsafeBufferPointer { mine in
            other.paths.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }

    /// The cached paths of one endpoint, in cluster, attribute order.
    public func paths(endpoint: UInt16) -> [ConcreteAttributePath] {
        Array(paths[range(of: endpoint)])
    }

    /// Whether the endpoint's values are the same in both caches, compared as encoded: no value is decoded.
    public func sameValues(endpoint: UInt16, as other: AttributeCache) -> Bool {
        let mine = range(of: endpoint)
        let theirs = other.range(of: endpoint)
        guard mine.count == theirs.count else { return false }
        return zip(mine, theirs).allSatisfy { index, otherIndex in
            paths[index] == other.paths[otherIndex]
                && encoded(spans[index]).elementsEqual(other.encoded(other.spans[otherIndex]))
        }
    }

    /// Whether both caches hold the same value at `path` (or neither holds one), compared as encoded.
    public func sameValue(_ path: ConcreteAttributePath, as other: AttributeCache) -> Bool {
        encodedValue(path) == other.encodedValue(path)
    }

    /// Hashes the endpoint's values as `sameValues` compares them.
    public func hashValues(endpoint: UInt16, into hasher: inout Hasher) {
        for index in range(of: endpoint) {
            hasher.combine(paths[index])
            for byte in encoded(spans[index]) { hasher.combine(byte) }
        }
    }

    /// One filter per cluster instance whose version is known, to send with a resubscription so that the publisher
    /// leaves out clusters that did not change; in endpoint, cluster order.
    public var dataVersionFilters: [DataVersionFilterIB] {
        dataVersions.map {
            DataVersionFilterIB(
                path: ClusterPathIB(endpoint: $0.path.endpoint, cluster: $0.path.cluster), dataVersion: $0.version)
        }
    }

    /// Applies the attribute reports of one whole report, in order, and returns the paths whose value differs
    /// afterwards. Data without a list index replaces the value; data with a null list index appends one item to
    /// the list (§10.6.4.3: a long list comes as a replacement followed by appends); data with a numeric index
    /// replaces that item. A status report removes the value. Reports with wildcard paths are ignored.
    @discardableResult
    public mutating func apply(_ reports: [AttributeReportIB]) -> Set<ConcreteAttributePath> {
        var before: [ConcreteAttributePath: [UInt8]?] = [:]
        let capacity = bytes.capacity
        for report in reports {
            guard let path = report.path.concrete else { continue }
            if before[path] == nil {
                before[path] = .some(encodedValue(path))
            }
            switch report {
            case .status:
                remove(path)
            case .data(let data):
                if let version = data.dataVersion {
                    setDataVersion(version, for: path.clusterPath)
                }
                apply(data, at: path)
            }
        }
        compactIfWasteful()
        // A buffer this report grew is left exactly sized too: grown, it doubled, and a cache read exactly sized from
        // the store (after a restart) would keep a third of its size spare for as long as the node is followed.
        if before.count >= Self.primingSize || bytes.capacity > capacity { tighten() }
        return Set(before.compactMap { path, old in encodedValue(path) == old ? nil : path })
    }

    /// Forgets the values and data versions of every endpoint not in `kept` (endpoints the node no longer has), and
    /// returns the paths forgotten.
    public mutating func keepOnly(endpoints kept: Set<UInt16>) -> Set<ConcreteAttributePath> {
        let gone = Set(paths.lazy.filter { !kept.contains($0.endpoint) })
        guard !gone.isEmpty || dataVersions.contains(where: { !kept.contains($0.path.endpoint) }) else { return [] }
        if !gone.isEmpty {
            sharedPaths = nil
            var keptPaths: [ConcreteAttributePath] = []
            var keptSpans: [Span] = []
            for (path, span) in zip(paths, spans) {
                if gone.contains(path) {
                    unused += Int(span.length)
                } else {
                    keptPaths.append(path)
                    keptSpans.append(span)
                }
            }
            paths = keptPaths
            spans = keptSpans
        }
        dataVersions.removeAll { !kept.contains($0.path.endpoint) }
        compactIfWasteful()
        return gone
    }

    public static func == (lhs: AttributeCache, rhs: AttributeCache) -> Bool {
        lhs.paths == rhs.paths
            && zip(lhs.spans, rhs.spans).allSatisfy { left, right in
                lhs.encoded(left).elementsEqual(rhs.encoded(right))
            }
            && lhs.dataVersions.elementsEqual(rhs.dataVersions) { $0.path == $1.path && $0.version == $1.version }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(paths.count)
        for (path, span) in zip(paths, spans) {
            hasher.combine(path)
            for byte in encoded(span) { hasher.combine(byte) }
        }
    }

    // MARK: Storage

    private enum Position {
        case found(Int)
        case insertAt(Int)
    }

    private static func precedes(_ lhs: ConcreteAttributePath, _ rhs: ConcreteAttributePath) -> Bool {
        (lhs.endpoint, lhs.cluster, lhs.attribute) < (rhs.endpoint, rhs.cluster, rhs.attribute)
    }

    private func search(_ path: ConcreteAttributePath) -> Position {
        var low = 0
        var high = paths.count
        while low < high {
            let middle = (low + high) / 2
            if paths[middle] == path { return .found(middle) }
            if Self.precedes(paths[middle], path) { low = middle + 1 } else { high = middle }
        }
        return .insertAt(low)
    }

    private func range(of endpoint: UInt16) -> Range<Int> {
        let start = position(ConcreteAttributePath(endpoint: endpoint, cluster: 0, attribute: 0))
        let end =
            endpoint == .max
            ? paths.count : position(ConcreteAttributePath(endpoint: endpoint + 1, cluster: 0, attribute: 0))
        return start..<end
    }

    private func position(_ path: ConcreteAttributePath) -> Int {
        switch search(path) {
        case .found(let index), .insertAt(let index): index
        }
    }

    private func encoded(_ span: Span) -> ArraySlice<UInt8> {
        bytes[Int(span.offset)..<Int(span.offset + span.length)]
    }

    private func encodedValue(_ path: ConcreteAttributePath) -> [UInt8]? {
        guard case .found(let index) = search(path) else { return nil }
        return Array(encoded(spans[index]))
    }

    private mutating func store(_ element: TLVElement, at path: ConcreteAttributePath) {
        let encoding = TLVWriter.encode(TLVElement(element.value))
        switch search(path) {
        case .found(let index):
            let span = spans[index]
            if Int(span.length) == encoding.count {
                bytes.replaceSubrange(Int(span.offset)..<Int(span.offset + span.length), with: encoding)
            } else {
                unused += Int(span.length)
                spans[index] = Span(offset: UInt32(bytes.count), length: UInt32(encoding.count))
                bytes.append(contentsOf: encoding)
            }
        case .insertAt(let index):
            sharedPaths = nil
            paths.insert(path, at: index)
            spans.insert(Span(offset: UInt32(bytes.count), length: UInt32(encoding.count)), at: index)
            bytes.append(contentsOf: encoding)
        }
    }

    private mutating func remove(_ path: ConcreteAttributePath) {
        guard case .found(let index) = search(path) else { return }
        unused += Int(spans[index].length)
        sharedPaths = nil
        paths.remove(at: index)
        spans.remove(at: index)
    }

    private mutating func setDataVersion(_ version: UInt32, for path: ConcreteClusterPath) {
        if let index = dataVersions.firstIndex(where: { $0.path == path }) {
            dataVersions[index].version = version
            return
        }
        let index =
            dataVersions.firstIndex { ($0.path.endpoint, $0.path.cluster) > (path.endpoint, path.cluster) }
            ?? dataVersions.count
        dataVersions.insert((path, version), at: index)
    }

    /// Rewrites the buffer without the bytes no entry uses, once they are more than half of it: replacing values of
    /// changing length (strings, lists) then costs amortized constant space.
    private mutating func compactIfWasteful() {
        guard unused > 256, unused * 2 > bytes.count else { return }
        var packed: [UInt8] = []
        packed.reserveCapacity(bytes.count - unused)
        for index in spans.indices {
            let span = spans[index]
            spans[index].offset = UInt32(packed.count)
            packed.append(contentsOf: encoded(span))
        }
        bytes = packed
        unused = 0
    }

    /// A report of this many attributes or more is a priming report (or a large part of one): afterwards the cache
    /// will mostly change values in place, so its buffers are cut to what they hold instead of keeping the spare
    /// capacity their growth left (up to half of each).
    private static let primingSize = 32

    private mutating func tighten() {
        // Copied through a buffer pointer: `Array(array)` would share the old storage, spare capacity and all.
        if sharedPaths == nil {
            let shared = AttributePathList.shared(paths.withUnsafeBufferPointer(Array.init))
            paths = shared.paths
            sharedPaths = shared
        }
        if spans.capacity > spans.count + spans.count / 8 { spans = spans.withUnsafeBufferPointer(Array.init) }
        if bytes.capacity > bytes.count + bytes.count / 8 { bytes = bytes.withUnsafeBufferPointer(Array.init) }
        if dataVersions.capacity > dataVersions.count + 4 {
            dataVersions = dataVersions.withUnsafeBufferPointer(Array.init)
        }
    }

    private mutating func apply(_ data: AttributeDataIB, at path: ConcreteAttributePath) {
        let item = TLVElement(data.data.value)
        switch data.path.listIndex {
        case nil:
            store(item, at: path)
        case .append:
            guard
                case .array(var items)? = value(
                    endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)?.value
            else {
                store(TLVElement(.array([item])), at: path)
                return
            }
            items.append(item)
            store(TLVElement(.array(items)), at: path)
        case .item(let index):
            guard
                case .array(var items)? = value(
                    endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)?.value,
                Int(index) < items.count
            else { return }
            items[Int(index)] = item
            store(TLVElement(.array(items)), at: path)
        }
    }
}

// MARK: Carrying a cache to another process

extension AttributeCache: Codable {
    private enum CodingKeys: String, CodingKey {
        case values, dataVersions
    }

    private struct EncodedValue: Codable {
        let path: ConcreteAttributePath
        let value: TLVElement
    }

    private struct EncodedVersion: Codable {
        let path: ConcreteClusterPath
        let version: UInt32
    }

    /// Takes in one value the node's connection reported elsewhere (the hub process): nil removes it.
    public mutating func set(_ path: ConcreteAttributePath, to element: TLVElement?) {
        if let element { store(element, at: path) } else { remove(path) }
        compactIfWasteful()
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for value in try container.decode([EncodedValue].self, forKey: .values) { store(value.value, at: value.path) }
        for version in try container.decode([EncodedVersion].self, forKey: .dataVersions) {
            setDataVersion(version.version, for: version.path)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let values = try zip(paths, spans).map { path, span in
            EncodedValue(path: path, value: try TLVReader.decode(Array(encoded(span))))
        }
        try container.encode(values, forKey: .values)
        try container.encode(
            dataVersions.map { EncodedVersion(path: $0.path, version: $0.version) }, forKey: .dataVersions)
    }
}

// MARK: The stored form

extension AttributeCache {
    /// The cache as the hub's store keeps it between runs: its values as the TLV they were reported in and its data
    /// versions, in one flat buffer (little-endian): format byte 1; entry count (u32), then per entry endpoint (u16),
    /// cluster (u32), attribute (u32), value length (u32) and the value; version count (u32), then per cluster
    /// endpoint (u16), cluster (u32), version (u32). Nothing is decoded to write it.
    public var storedForm: [UInt8] {
        var out: [UInt8] = [Self.storedFormat]
        out.reserveCapacity(1 + 8 + paths.count * 14 + (bytes.count - unused) + dataVersions.count * 10)
        Self.append(UInt32(paths.count), to: &out)
        for (path, span) in zip(paths, spans) {
            Self.append(path.endpoint, to: &out)
            Self.append(path.cluster, to: &out)
            Self.append(path.attribute, to: &out)
            Self.append(span.length, to: &out)
            out.append(contentsOf: encoded(span))
        }
        Self.append(UInt32(dataVersions.count), to: &out)
        for (path, version) in dataVersions {
            Self.append(path.endpoint, to: &out)
            Self.append(path.cluster, to: &out)
            Self.append(version, to: &out)
        }
        return out
    }

    /// A cache from its stored form; nil when the bytes are not one (another format, cut short, paths out of order,
    /// a value that is not one TLV element): a damaged record is no record, never a wrong one.
    public init?(storedForm stored: [UInt8]) {
        var reader = StoredFormReader(bytes: stored)
        guard reader.byte() == Self.storedFormat, let count = reader.integer(UInt32.self),
            Int(count) <= stored.count / 14
        else { return nil }
        self.init()
        // Sized as it will stay: a restarted hub holds every node's cache for as long as it runs.
        paths.reserveCapacity(Int(count))
        spans.reserveCapacity(Int(count))
        bytes.reserveCapacity(stored.count - Int(count) * 14)
        for _ in 0..<count {
            guard let endpoint = reader.integer(UInt16.self), let cluster = reader.integer(UInt32.self),
                let attribute = reader.integer(UInt32.self), let length = reader.integer(UInt32.self),
                let value = reader.bytes(Int(length)), (try? TLVReader.decode(Array(value))) != nil
            else { return nil }
            let path = ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)
            if let last = paths.last, (last.endpoint, last.cluster, last.attribute) >= (endpoint, cluster, attribute) {
                return nil
            }
            paths.append(path)
            spans.append(Span(offset: UInt32(bytes.count), length: length))
            bytes.append(contentsOf: value)
        }
        guard let versions = reader.integer(UInt32.self) else { return nil }
        for _ in 0..<versions {
            guard let endpoint = reader.integer(UInt16.self), let cluster = reader.integer(UInt32.self),
                let version = reader.integer(UInt32.self)
            else { return nil }
            setDataVersion(version, for: ConcreteClusterPath(endpoint: endpoint, cluster: cluster))
        }
        guard reader.isAtEnd else { return nil }
        tighten()
    }

    private static let storedFormat: UInt8 = 1

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private struct StoredFormReader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? { bytes(1)?.first }

        mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
            guard let slice = bytes(MemoryLayout<Integer>.size) else { return nil }
            return slice.reversed().reduce(Integer.zero) { $0 << 8 | Integer($1) }
        }
    }
}
