import HomeRecords
import MatterPlatform
import MatterSecureChannel

/// The CASE resumption record each node's last session left (Matter Core §4.14.2.2), kept across restarts so a hub
/// that starts again resumes every node's session (Sigma1 → Sigma2Resume: no ECDH, no certificate chain, no signature
/// on either side) instead of running the full CASE with each. The record holds the session's shared secret: it lives
/// in the database (0600, in the 0700 state directory), leaves the store only to the CASE initiator, and is never
/// printed (`CASEResumptionRecord.description`). It goes with its node (ON DELETE CASCADE).
extension HubStore {
    /// The record to offer `nodeID` next time, replacing the one before. Not awaited: a session establishment does
    /// not wait on the disk for it, and the store's queue keeps it in order with what follows. It changes nothing a
    /// home model shows (no change counted).
    public func saveCASEResumption(_ record: CASEResumptionRecord) {
        queue.async { [self] in
            _ = try? write(touching: []) { transaction in
                try transaction.query(
                    """
                    INSERT OR REPLACE INTO case_resumptions
                        (node_id, resumption_id, shared_secret, local_node_id, fabric_id, root_public_key)
                    SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM nodes WHERE node_id = ?)
                    """,
                    [
                        .identifier(record.peerNodeID), .blob(record.resumptionID), .blob(record.sharedSecret),
                        .identifier(record.localNodeID), .identifier(record.fabricID), .blob(record.rootPublicKey),
                        .identifier(record.peerNodeID),
                    ])
            }
        }
    }

    /// The record `nodeID`'s last session left, if any. A damaged row is no record (the full CASE runs and replaces
    /// it), never a reason not to reach the node.
    public func caseResumption(of nodeID: UInt64) async -> CASEResumptionRecord? {
        try? await onQueue { [self] () throws(HubStoreError) in
            guard let values = try read("SELECT * FROM case_resumptions WHERE node_id = ?", [.identifier(nodeID)]).first
            else { return nil }
            let row = StoredRow(table: "case_resumptions", values: values)
            return CASEResumptionRecord(
                resumptionID: try row.blob("resumption_id"), sharedSecret: try row.blob("shared_secret"),
                localNodeID: try row.identifier("local_node_id"), peerNodeID: nodeID,
                fabricID: try row.identifier("fabric_id"), rootPublicKey: try row.blob("root_public_key"))
        }
    }
}
