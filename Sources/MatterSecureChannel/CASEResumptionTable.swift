// Matter Core §4.14.2.2: the responder's resumption records, bounded per fabric.
public struct CASEResumptionTable: Sendable {
    /// Oldest first, so eviction drops the longest-unused record.
    private var records: [CASEResumptionRecord] = []

    public init() {}

    public var count: Int { records.count }

    /// Keeps `record` as the one record of its peer on its fabric (a resumed session replaces the record it
    /// resumed), evicting the oldest record of that fabric beyond `SecureChannelLimits.resumptionRecordsPerFabric`.
    public mutating func remember(_ record: CASEResumptionRecord) {
        records.removeAll {
            $0.peerNodeID == record.peerNodeID && $0.fabricID == record.fabricID
                && $0.rootPublicKey == record.rootPublicKey
        }
        records.append(record)
        let sameFabric = records.indices.filter {
            records[$0].fabricID == record.fabricID && records[$0].rootPublicKey == record.rootPublicKey
        }
        let excess = sameFabric.count - SecureChannelLimits.resumptionRecordsPerFabric
        if excess > 0 {
            let evicted = Set(sameFabric.prefix(excess))
            records = records.indices.filter { !evicted.contains($0) }.map { records[$0] }
        }
    }

    public func record(withID resumptionID: [UInt8]) -> CASEResumptionRecord? {
        records.first { $0.resumptionID == resumptionID }
    }
}
