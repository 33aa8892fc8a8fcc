import Foundation
import HomeRecords
import MatterPlatform

/// A row read back from the hub's database, with typed accessors that name the column when the stored value
/// is not what the schema promises (a database edited by hand, or damaged).
struct StoredRow {
    let table: String
    let values: SQLiteDatabase.Row

    func integer(_ column: String) throws(HubStoreError) -> Int64 {
        guard let value = values[column]?.integer else { throw corrupt(column, "expected an integer") }
        return value
    }

    func optionalInteger(_ column: String) throws(HubStoreError) -> Int64? {
        if values[column] == nil || values[column] == .null { return nil }
        return try integer(column)
    }

    /// A 64-bit identifier, stored as its Int64 bit pattern.
    func identifier(_ column: String) throws(HubStoreError) -> UInt64 {
        UInt64(bitPattern: try integer(column))
    }

    func narrow<T: FixedWidthInteger>(_ column: String, as type: T.Type) throws(HubStoreError) -> T {
        let value = try integer(column)
        guard let narrowed = T(exactly: value) else { throw corrupt(column, "\(value) does not fit \(T.self)") }
        return narrowed
    }

    func text(_ column: String) throws(HubStoreError) -> String {
        guard let value = values[column]?.text else { throw corrupt(column, "expected text") }
        return value
    }

    func optionalText(_ column: String) throws(HubStoreError) -> String? {
        if values[column] == nil || values[column] == .null { return nil }
        return try text(column)
    }

    func blob(_ column: String) throws(HubStoreError) -> [UInt8] {
        guard let value = values[column]?.blob else { throw corrupt(column, "expected bytes") }
        return value
    }

    func optionalBlob(_ column: String) throws(HubStoreError) -> [UInt8]? {
        if values[column] == nil || values[column] == .null { return nil }
        return try blob(column)
    }

    func date(_ column: String) throws(HubStoreError) -> Date {
        Date(timeIntervalSince1970: TimeInterval(try integer(column)))
    }

    func optionalDate(_ column: String) throws(HubStoreError) -> Date? {
        try optionalInteger(column).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    func corrupt(_ column: String, _ reason: String) -> HubStoreError {
        .corrupt(table: table, column: column, reason: reason)
    }
}

extension SQLiteDatabase.Value {
    static func identifier(_ value: UInt64) -> Self { .integer(Int64(bitPattern: value)) }
    static func date(_ value: Date) -> Self { .integer(Int64(value.timeIntervalSince1970.rounded(.down))) }
    static func optionalText(_ value: String?) -> Self { value.map { .text($0) } ?? .null }
}
