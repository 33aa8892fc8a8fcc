import Foundation
import Synchronization
import Testing

@testable import MatterPlatform

@Suite struct SQLiteDatabaseTests {
    static func temporaryPath() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swift-home-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("hub.sqlite").path
    }

    @Test func createsAnOwnerOnlyDatabaseInWALMode() throws {
        let path = Self.temporaryPath()
        let database = try SQLiteDatabase(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try database.query("PRAGMA journal_mode").first?["journal_mode"] == .text("wal"))
    }

    /// Reading a store far larger than the page cache's cap (as a large home's cold start reads every node's cache)
    /// leaves the cache at its cap, not SQLite's default 2 MB.
    @Test func readingALargeStoreKeepsThePageCacheAtItsCap() throws {
        let database = try SQLiteDatabase(path: Self.temporaryPath())
        try database.execute("CREATE TABLE caches (id INTEGER PRIMARY KEY, cache BLOB NOT NULL)")
        let blob = [UInt8](repeating: 0xA5, count: 3_000)
        try database.transaction { transaction in
            for id in 0..<1_000 {
                try transaction.query("INSERT INTO caches VALUES (?, ?)", [.integer(Int64(id)), .blob(blob)])
            }
        }
        for id in 0..<1_000 {
            #expect(try database.query("SELECT cache FROM caches WHERE id = ?", [.integer(Int64(id))]).count == 1)
        }
        let cap = SQLiteDatabase.pageCacheKibibytes * 1_024
        // A cached page costs its size plus SQLite's header for it, about a tenth more.
        #expect(database.pageCacheBytes <= cap + cap / 5)
        #expect(database.pageCacheBytes > cap / 2)
    }

    @Test func storesEveryValueType() throws {
        let database = try SQLiteDatabase(path: Self.temporaryPath())
        try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
        try database.query(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
            [.integer(-5), .real(2.5), .text("Küche"), .blob([0, 1, 255]), .null])
        let row = try #require(try database.query("SELECT * FROM t").first)
        #expect(row["i"] == .integer(-5))
        #expect(row["r"] == .real(2.5))
        #expect(row["s"] == .text("Küche"))
        #expect(row["b"] == .blob([0, 1, 255]))
        #expect(row["n"] == .null)
    }

    @Test func aFailedTransactionLeavesNothingBehind() throws {
        struct Abort: Error {}
        let database = try SQLiteDatabase(path: Self.temporaryPath())
        try database.execute("CREATE TABLE nodes (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try database.query("INSERT INTO nodes VALUES (1, 'kept')")
        #expect(throws: Abort.self) {
            try database.transaction { transaction in
                try transaction.query("INSERT INTO nodes VALUES (2, 'half')")
                try transaction.query("UPDATE nodes SET name = 'changed' WHERE id = 1")
                throw Abort()
            }
        }
        let rows = try database.query("SELECT id, name FROM nodes ORDER BY id")
        #expect(rows.map { $0["name"] } == [.text("kept")])
    }

    @Test func aSecondConnectionSeesCommittedWritesOnly() throws {
        let path = Self.temporaryPath()
        let app = try SQLiteDatabase(path: path)
        let helper = try SQLiteDatabase(path: path)
        try app.execute("CREATE TABLE rooms (name TEXT)")
        try app.transaction { try $0.query("INSERT INTO rooms VALUES ('Kitchen')") }
        #expect(try helper.query("SELECT name FROM rooms") == [["name": .text("Kitchen")]])
    }

    @Test(
        "connections opening one fresh file at once all open it, in WAL mode (an app and its helper starting together)")
    func concurrentOpenersOfAFreshFile() throws {
        for _ in 0..<40 {
            let path = Self.temporaryPath()
            let openers = 4
            let failures = Mutex<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<openers {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    start.wait()
                    do {
                        let database = try SQLiteDatabase(path: path)
                        let mode = try database.query("PRAGMA journal_mode").first?["journal_mode"]
                        if mode != .text("wal") {
                            failures.withLock { $0.append("journal mode \(String(describing: mode))") }
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            for _ in 0..<openers { start.signal() }
            group.wait()
            #expect(failures.withLock { $0 } == [])
        }
    }

    @Test func reportsBadStatementsClearly() throws {
        let database = try SQLiteDatabase(path: Self.temporaryPath())
        #expect {
            try database.query("SELECT * FROM missing")
        } throws: { error in
            "\(error)".hasPrefix("database error: no such table: missing")
        }
        #expect(throws: SQLiteError.self) { try SQLiteDatabase(path: "/nonexistent/dir/hub.sqlite") }
    }
}
