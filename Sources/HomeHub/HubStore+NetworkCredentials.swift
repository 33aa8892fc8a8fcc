import Foundation
import HomeRecords
import MatterPlatform

/// The Wi-Fi network and the Thread dataset the hub gives a device fresh from its box (Network Commissioning). The
/// passphrase and the dataset are secrets: they live in the database (0600, in the 0700 state directory), leave the
/// store only for a commissioning, and are never printed (`NetworkCredentials.shownName` is what may be shown).
extension HubStore {
    /// The stored Wi-Fi credentials and Thread dataset, each nil when not set.
    public func networkCredentials() async throws(HubStoreError) -> (
        wifi: NetworkCredentials?, thread: NetworkCredentials?
    ) {
        try await onQueue { [self] () throws(HubStoreError) in
            var wifi: NetworkCredentials?
            var thread: NetworkCredentials?
            for values in try read("SELECT kind, name, secret FROM network_credentials") {
                let row = StoredRow(table: "network_credentials", values: values)
                switch try row.text("kind") {
                case "wifi": wifi = .wifi(ssid: try row.blob("name"), credentials: try row.blob("secret"))
                case "thread": thread = .thread(operationalDataset: try row.blob("secret"))
                default: break
                }
            }
            return (wifi, thread)
        }
    }

    /// Stores `credentials`, replacing those of their kind; nothing a home model shows changes.
    public func setNetworkCredentials(_ credentials: NetworkCredentials) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            let (kind, name, secret): (String, [UInt8], [UInt8]) =
                switch credentials {
                case .wifi(let ssid, let passphrase): ("wifi", ssid, passphrase)
                case .thread(let dataset): ("thread", [], dataset)
                }
            try write(touching: []) { transaction in
                try transaction.query(
                    "INSERT OR REPLACE INTO network_credentials (kind, name, secret, updated_at) VALUES (?, ?, ?, ?)",
                    [.text(kind), .blob(name), .blob(secret), .date(Self.now())])
            }
        }
    }
}
