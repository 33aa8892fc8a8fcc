import CSQLite
import Foundation
import Synchronization

/// The hub's store: one SQLite database in WAL mode, so an app and its helper process can share it — readers
/// never block the writer and never see half a transaction. Every write goes through `transaction`.
public final class SQLiteDatabase: Sendable {
    /// A value bound to or read from a statement.
    public enum Value: Hashable, Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    public typealias Row = [String: Value]

    private let handle: Mutex<OpaquePointer>
    /// Only touched while `handle` is locked.
    private let prepared = PreparedStatements()
    public let path: String

    /// How long a writer waits for another process's transaction before giving up with `busy`.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    /// The page cache's cap, in KiB (SQLite's default is 2,000). A hub reads each node's stored cache once, at its
    /// start, and then writes a few rows at a time, so few pages are read twice: a small cache keeps the B-tree's
    /// interior pages, which is what repeated lookups reuse. The default would be filled by the cold start of a large
    /// home (1,000 nodes' caches are several MB) and held for the process's life, about 2 KiB per node.
    public static let pageCacheKibibytes = 256

    private let statements = Atomic<Int>(0)

    /// How many statements this connection has run: what a test counts to show that a path never touches the store.
    public var statementsRun: Int { statements.load(ordering: .relaxed) }

    /// The memory the connection's page cache holds now, in bytes.
    public var pageCacheBytes: Int {
        handle.withLock { connection in
            var current: Int32 = 0
            var highest: Int32 = 0
            _ = sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
            return Int(current)
        }
    }

    /// Opens (creating it when absent, readable by the owner only: it may hold key material) the database at `path`.
    public init(path: String) throws(SQLiteError) {
        let existed = FileManager.default.fileExists(atPath: path)
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(connection)
            throw .open(path: path, message: message)
        }
        if !existed { chmod(path, 0o600) }
        sqlite3_busy_timeout(connection, Self.busyTimeoutMilliseconds)
        self.handle = Mutex(connection)
        self.path = path
        try enterWALMode()
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA cache_size = -\(Self.pageCacheKibibytes)")
    }

    deinit {
        handle.withLock { connection in
            prepared.finalizeAll()
            _ = sqlite3_close_v2(connection)
        }
    }

    /// WAL is a property of the file, set once by its first opener; a later one only checks it (asking again still
    /// takes a mode change's locks). Two connections opening a fresh file at once both ask, and SQLite refuses one of
    /// them at once, busy handler or not (both hold a read lock and want the write lock: waiting could deadlock), so
    /// the refused one asks again until it sees the other's change, for at most the busy timeout.
    private func enterWALMode() throws(SQLiteError) {
        let sql = "PRAGMA journal_mode = WAL"
        let deadline = ContinuousClock.now + .milliseconds(Int(Self.busyTimeoutMilliseconds))
        while try query("PRAGMA journal_mode").first?["journal_mode"]?.text?.lowercased() != "wal" {
            statements.add(1, ordering: .relaxed)
            let status = handle.withLock { sqlite3_exec($0, sql, nil, nil, nil) }
            switch status {
            case SQLITE_OK: return
            case SQLITE_BUSY where ContinuousClock.now < deadline: usleep(1_000)
            case SQLITE_BUSY: throw .busy(sql: sql)
            default:
                throw .statement(sql: sql, message: handle.withLock { String(cString: sqlite3_errmsg($0)) })
            }
        }
    }

    /// Runs statements with no results (schema, pragmas).
    public func execute(_ sql: String) throws(SQLiteError) {
        statements.add(1, ordering: .relaxed)
        try handle.withLock { connection throws(SQLiteError) in
            var message: UnsafeMutablePointer<CChar>?
            guard sqlite3_exec(connection, sql, nil, nil, &message) == SQLITE_OK else {
                let text = message.map { String(cString: $0) } ?? "unknown error"
                sqlite3_free(message)
                throw .statement(sql: sql, message: text)
            }
        }
    }

    /// Runs one statement with bound parameters (`?`) and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ bindings: [Value] = []) throws(SQLiteError) -> [Row] {
        statements.add(1, ordering: .relaxed)
        return try handle.withLock { connection throws(SQLiteError) in
            try Self.run(sql, bindings, on: connection, prepared: prepared)
        }
    }

    /// Runs `body` in one IMMEDIATE transaction: other writers wait, and a throw rolls everything back.
    @discardableResult
    public func transaction<Result>(_ body: (Transaction) throws -> Result) throws -> Result {
        statements.add(1, ordering: .relaxed)
        return try handle.withLock { connection in
            _ = try Self.run("BEGIN IMMEDIATE", [], on: connection, prepared: prepared)
            do {
                let result = try body(Transaction(connection: connection, database: self))
                _ = try Self.run("COMMIT", [], on: connection, prepared: prepared)
                return result
            } catch {
                _ = try? Self.run("ROLLBACK", [], on: connection, prepared: prepared)
                throw error
            }
        }
    }

    /// The statements of one transaction.
    public struct Transaction {
        fileprivate let connection: OpaquePointer
        fileprivate unowned let database: SQLiteDatabase

        @discardableResult
        public func query(_ sql: String, _ bindings: [Value] = []) throws(SQLiteError) -> [Row] {
            database.statements.add(1, ordering: .relaxed)
            return try SQLiteDatabase.run(sql, bindings, on: connection, prepared: database.prepared)
        }
    }

    fileprivate static func run(
        _ sql: String, _ bindings: [Value], on connection: OpaquePointer, prepared: PreparedStatements
    ) throws(SQLiteError) -> [Row] {
        let statement = try prepared.statement(for: sql, on: connection)
        // Reset for its next use whatever happens: a statement left mid-step would hold its read open.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 =
                switch value {
                case .null: sqlite3_bind_null(statement, position)
                case .integer(let number): sqlite3_bind_int64(statement, position, number)
                case .real(let number): sqlite3_bind_double(statement, position, number)
                case .text(let text): sqlite3_bind_text(statement, position, text, -1, sqliteTransient)
                case .blob(let bytes):
                    bytes.withUnsafeBytes {
                        sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), sqliteTransient)
                    }
                }
            guard status == SQLITE_OK else {
                throw .statement(sql: sql, message: String(cString: sqlite3_errmsg(connection)))
            }
        }
        var rows: [Row] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else {
                let message = String(cString: sqlite3_errmsg(connection))
                throw step == SQLITE_BUSY ? .busy(sql: sql) : .statement(sql: sql, message: message)
            }
            var row: Row = [:]
            for column in 0..<sqlite3_column_count(statement) {
                let name = String(cString: sqlite3_column_name(statement, column))
                row[name] =
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                    case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                    case SQLITE_BLOB:
                        .blob(
                            Array(
                                UnsafeRawBufferPointer(
                                    start: sqlite3_column_blob(statement, column),
                                    count: Int(sqlite3_column_bytes(statement, column)))))
                    default: .null
                    }
            }
            rows.append(row)
        }
    }
}

/// SQLITE_TRANSIENT: SQLite copies bound text and blobs before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

public enum SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    case open(path: String, message: String)
    case statement(sql: String, message: String)
    case busy(sql: String)

    public var description: String {
        switch self {
        case .open(let path, let message): "cannot open database \(path): \(message)"
        case .statement(let sql, let message): "database error: \(message) (in: \(sql.prefix(80)))"
        case .busy(let sql):
            "database is busy: another process held its lock past \(SQLiteDatabase.busyTimeoutMilliseconds) ms (in: \(sql.prefix(80)))"
        }
    }
}

extension SQLiteDatabase.Value {
    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    public var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

/// The prepared statements of one connection, by SQL text, reused instead of compiled for every call (the store's
/// statements are a fixed set). A statement outlives a schema change: SQLite re-prepares it when it must.
final class PreparedStatements: @unchecked Sendable {
    /// More distinct statements than this means SQL built from data; then the cache starts over rather than grow.
    private static let limit = 256
    private var statements: [String: OpaquePointer] = [:]

    func statement(for sql: String, on connection: OpaquePointer) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        if statements.count >= Self.limit { finalizeAll() }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw .statement(sql: sql, message: String(cString: sqlite3_errmsg(connection)))
        }
        statements[sql] = statement
        return statement
    }

    func finalizeAll() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
    }
}
