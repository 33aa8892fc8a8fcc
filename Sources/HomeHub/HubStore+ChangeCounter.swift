import HomeRecords
import MatterPlatform

/// The change counter: triggers on every table the home shows (structures, rooms, devices, nodes, endpoints) increment it
/// in the writing transaction, so any connection, in this process or another, learns of a change by reading one row.
extension HubStore {
    public func changeCounter() async throws(HubStoreError) -> Int64 {
        try await onQueue { [self] () throws(HubStoreError) in try changeCounterOnQueue() }
    }

    /// `changeCounter()` for code already on the store's queue (or a commit observer, on the writer's).
    func changeCounterOnQueue() throws(HubStoreError) -> Int64 {
        guard let values = try read("SELECT value FROM change_counter").first else {
            throw .corrupt(table: "change_counter", column: "value", reason: "the row is missing")
        }
        return try StoredRow(table: "change_counter", values: values).integer("value")
    }

    /// The counter as a transaction sees it; nil before the migration that creates it.
    static func changeCounter(in transaction: SQLiteDatabase.Transaction) -> Int64? {
        try? transaction.query("SELECT value FROM change_counter").first?["value"]?.integer
    }
}
