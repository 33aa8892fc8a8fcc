import HomeRecords
import MatterInteraction

/// Each node's attribute cache as its live connection last stored it, with the data version of every cluster
/// (Matter Core §7.10.3), so a restarted hub shows the node at once and subscribes with data version filters
/// (§8.5.1): the node's priming then leaves out every cluster that did not change. The cache goes with its node.
extension HubStore {
    /// Stores these caches in one transaction, each replacing the node's last; a node the store no longer holds is
    /// skipped. It changes nothing a home model shows (no change counted).
    public func saveAttributeCaches(_ caches: [UInt64: AttributeCache]) async {
        let encoded = caches.mapValues(\.storedForm)
        try? await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                for (nodeID, data) in encoded {
                    try transaction.query(
                        """
                        INSERT OR REPLACE INTO attribute_caches (node_id, cache)
                        SELECT ?, ? WHERE EXISTS (SELECT 1 FROM nodes WHERE node_id = ?)
                        """, [.identifier(nodeID), .blob(data), .identifier(nodeID)])
                }
            }
        }
    }

    /// The cache last stored for `nodeID`, if any. A damaged one is none: the node's priming then brings all of it.
    public func attributeCache(of nodeID: UInt64) async -> AttributeCache? {
        let data = try? await onQueue { [self] () throws(HubStoreError) in
            try read("SELECT cache FROM attribute_caches WHERE node_id = ?", [.identifier(nodeID)]).first.map {
                values throws(HubStoreError) in try StoredRow(table: "attribute_caches", values: values).blob("cache")
            }
        }
        guard let data else { return nil }
        return AttributeCache(storedForm: data)
    }
}
