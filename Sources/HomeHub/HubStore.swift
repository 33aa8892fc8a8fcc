import Foundation
import HomeRecords
import MatterPlatform

/// The hub's persistent state over SQLite: the fabric, the nodes and their endpoints, the node IDs handed out.
/// Callers see typed records only. Every write is one short transaction, so a crash leaves each change whole or absent.
///
/// Every method runs its statements on the store's own serial queue and is awaited: no cooperative thread ever
/// waits on the database, which a writer can for up to the busy timeout while another process holds its lock.
public final class HubStore: Sendable {
    let database: SQLiteDatabase
    /// Where every statement of this store runs, one at a time, in order.
    let queue: DispatchQueue
    /// The database file as every connection to it in this process names it: where commits are told.
    let canonicalPath: String

    /// The database file.
    public var path: String { database.path }

    /// The file every committed write closes after writing, for `FileChangeWatch`es on the store's directory.
    var changeMarkerPath: String { database.path + "-written" }

    /// Opens the database in the state directory, creating or migrating its schema.
    public convenience init(directory: StateDirectory) async throws(HubStoreError) {
        try await self.init(path: directory.databasePath)
    }

    public init(path: String) async throws(HubStoreError) {
        let queue = DispatchQueue(label: "swift-home.store")
        self.queue = queue
        database = try await queue.perform { () throws(HubStoreError) in
            do throws(SQLiteError) {
                return try SQLiteDatabase(path: path)
            } catch {
                throw .database(error)
            }
        }
        canonicalPath = StoreCommitObservers.canonical(path)
        try await onQueue { [self] () throws(HubStoreError) in try migrate() }
    }

    /// Runs `body` on the store's queue and hands back what it returned or threw.
    @discardableResult
    func onQueue<Result: Sendable>(
        _ body: @escaping @Sendable () throws(HubStoreError) -> Result
    ) async throws(HubStoreError) -> Result {
        try await queue.perform(body)
    }

    /// Calls `observer` after every commit to this store's file by any connection of this process, at once, on the
    /// writer's thread; until the token is released.
    public func observeCommits(_ observer: @escaping @Sendable (StoreCommit) -> Void) -> StoreCommitToken {
        StoreCommitObservers.observe(canonicalPath, observer)
    }

    /// The schema version the database is at.
    public func schemaVersion() async throws(HubStoreError) -> Int {
        try await onQueue { [self] () throws(HubStoreError) in try storedSchemaVersion() }
    }

    private func storedSchemaVersion() throws(HubStoreError) -> Int {
        let rows = try read("SELECT version FROM schema_version")
        guard let row = rows.first else { return 0 }
        return Int(try StoredRow(table: "schema_version", values: row).integer("version"))
    }

    // MARK: Fabric

    /// The hub's fabric, or nil before it was created.
    public func fabric() async throws(HubStoreError) -> FabricRecord? {
        try await onQueue { [self] () throws(HubStoreError) in
            guard let values = try read("SELECT * FROM fabric").first else { return nil }
            let row = StoredRow(table: "fabric", values: values)
            return FabricRecord(
                fabricID: try row.identifier("fabric_id"), hubNodeID: try row.identifier("hub_node_id"),
                vendorID: try row.narrow("vendor_id", as: UInt16.self), rootCertificate: try row.blob("rcac"),
                intermediateCertificate: try row.optionalBlob("icac"),
                hubOperationalCertificate: try row.blob("hub_noc"),
                ipkEpochKey: try row.blob("ipk_epoch_key"), createdAt: try row.date("created_at"))
        }
    }

    /// Stores the hub's fabric; a hub has exactly one, so a second is refused.
    public func insertFabric(_ fabric: FabricRecord) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                if let existing = try transaction.query("SELECT fabric_id FROM fabric").first {
                    throw HubStoreError.fabricExists(
                        try StoredRow(table: "fabric", values: existing).identifier("fabric_id"))
                }
                try transaction.query(
                    "INSERT INTO fabric (fabric_id, hub_node_id, vendor_id, rcac, icac, hub_noc, ipk_epoch_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .identifier(fabric.fabricID), .identifier(fabric.hubNodeID), .integer(Int64(fabric.vendorID)),
                        .blob(fabric.rootCertificate),
                        fabric.intermediateCertificate.map { .blob($0) } ?? .null,
                        .blob(fabric.hubOperationalCertificate),
                        .blob(fabric.ipkEpochKey), .date(fabric.createdAt),
                    ])
            }
        }
    }

    // MARK: Node ID allocation

    /// Records `nodeID` as handed out when no node, no earlier allocation and not the hub itself uses it.
    /// Returns false when it is taken. Allocations are never released: a device that crashed mid-commissioning
    /// may still hold a NOC for its ID.
    public func reserveNodeID(_ nodeID: UInt64) async throws(HubStoreError) -> Bool {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                let taken = try transaction.query(
                    """
                    SELECT 1 FROM node_id_allocations WHERE node_id = ?1
                    UNION ALL SELECT 1 FROM nodes WHERE node_id = ?1
                    UNION ALL SELECT 1 FROM fabric WHERE hub_node_id = ?1
                    """, [.identifier(nodeID)])
                guard taken.isEmpty else { return false }
                try transaction.query(
                    "INSERT INTO node_id_allocations (node_id, allocated_at) VALUES (?, ?)",
                    [.identifier(nodeID), .date(Self.now())])
                return true
            }
        }
    }

    // MARK: Plumbing

    /// The current time to whole seconds: what the database stores, so a record reads back equal.
    static func now() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    func read(_ sql: String, _ bindings: [SQLiteDatabase.Value] = []) throws(HubStoreError) -> [SQLiteDatabase.Row] {
        do {
            return try database.query(sql, bindings)
        } catch {
            throw .database(error)
        }
    }

    /// One transaction. `nodes` names the nodes whose rows it may change, so the home model re-reads only those; nil
    /// when it may change anything.
    @discardableResult
    func write<Result>(
        touching nodes: Set<UInt64>? = nil, _ body: (SQLiteDatabase.Transaction) throws -> Result
    ) throws(HubStoreError) -> Result {
        do {
            let (result, before, after) = try database.transaction { transaction in
                let before = Self.changeCounter(in: transaction)
                let result = try body(transaction)
                return (result, before, Self.changeCounter(in: transaction))
            }
            if before != after || before == nil {
                StoreCommitObservers.committed(
                    StoreCommit(counterBefore: before, counterAfter: after, nodes: nodes), to: canonicalPath)
            }
            // Committed: other processes' live queries wake on this marker and read the change counter.
            FileChangeWatch.signal(changeMarkerPath)
            return result
        } catch let error as HubStoreError {
            throw error
        } catch let error as SQLiteError {
            throw .database(error)
        } catch {
            throw .database(.statement(sql: "transaction", message: "\(error)"))
        }
    }

    private func migrate() throws(HubStoreError) {
        try write { transaction in
            try transaction.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            if try transaction.query("SELECT version FROM schema_version").isEmpty {
                try transaction.query("INSERT INTO schema_version (version) VALUES (0)")
            }
        }
        let found = try storedSchemaVersion()
        guard found <= HubSchema.currentVersion else {
            throw .newerSchema(found: found, supported: HubSchema.currentVersion)
        }
        for (index, statements) in HubSchema.migrations.enumerated() where index + 1 > found {
            try write { transaction in
                // Another process may have migrated meanwhile: the IMMEDIATE transaction makes this check exact.
                let current =
                    try transaction.query("SELECT version FROM schema_version").first?["version"]?.integer ?? 0
                guard current == Int64(index) else { return }
                for statement in statements { try transaction.query(statement) }
                try transaction.query("UPDATE schema_version SET version = ?", [.integer(Int64(index + 1))])
            }
        }
    }
}
