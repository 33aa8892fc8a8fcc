import Foundation
import HomeRecords
import MatterPlatform

/// The fail-safes this hub armed on devices it has no node row for yet (Matter Core §11.10.7.2: from PASE, which
/// arms one itself, to AddNOC). A process that dies in between leaves its row; a later attempt the device refuses
/// as BUSY reads it to tell whose commissioning holds the device and how long it will.
extension HubStore {
    /// A fail-safe armed now on the device at `address`, for `seconds`. Not awaited: the commissioner does not wait on
    /// the disk for it, and the store's queue keeps it in order with the writes that follow. Expired rows go.
    public func failSafeArmed(at address: SocketAddress, seconds: UInt16) {
        let expiry = Self.now().addingTimeInterval(Double(seconds))
        queue.async { [self] in
            _ = try? write(touching: []) { transaction in
                try transaction.query("DELETE FROM fail_safes WHERE expires_at < ?", [.date(Self.now())])
                try transaction.query(
                    "INSERT OR REPLACE INTO fail_safes (address, expires_at) VALUES (?, ?)",
                    [.text(address.description), .date(expiry)])
            }
        }
    }

    /// The commissioning that armed the fail-safe at `address` ended (done, or rolled back): the device is free.
    public func failSafeEnded(at address: SocketAddress) {
        queue.async { [self] in
            _ = try? write(touching: []) { transaction in
                try transaction.query("DELETE FROM fail_safes WHERE address = ?", [.text(address.description)])
            }
        }
    }

    /// When the fail-safe this hub armed at `address` expires; nil when it armed none there, or it has expired.
    public func failSafeExpiry(at address: SocketAddress) async throws(HubStoreError) -> Date? {
        try await onQueue { [self] () throws(HubStoreError) in
            let rows = try read(
                "SELECT expires_at FROM fail_safes WHERE address = ? AND expires_at >= ?",
                [.text(address.description), .date(Self.now())])
            return try rows.first.map { values throws(HubStoreError) in
                try StoredRow(table: "fail_safes", values: values).date("expires_at")
            }
        }
    }
}
