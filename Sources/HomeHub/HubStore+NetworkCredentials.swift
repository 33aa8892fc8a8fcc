import Foundation
import HomeRecords
import MatterPlatform

/// The Wi-Fi networks and Thread datasets the hub gives a device fresh from its box (Network Commissioning), each
/// under an ID (matterjs-server's named lists); the one a commissioning takes unless told otherwise is "default".
/// Passphrases and datasets are secrets: they live in the database (0600, in the 0700 state directory), leave the
/// store only for a commissioning, and are never printed (`NetworkCredentials.shownName` is what may be shown).
extension HubStore {
    /// The ID of the credentials a commissioning takes unless told otherwise, and pre-named-list clients set.
    public static let defaultCredentialsID = "default"

    /// Credentials as stored: their ID and them.
    public struct StoredNetworkCredentials: Sendable, Hashable {
        public let id: String
        public let credentials: NetworkCredentials
    }

    /// The Wi-Fi credentials and Thread dataset stored under these IDs, each nil when none is.
    public func networkCredentials(
        wifiID: String = defaultCredentialsID, threadID: String = defaultCredentialsID
    ) async throws(HubStoreError) -> (wifi: NetworkCredentials?, thread: NetworkCredentials?) {
        let all = try await allNetworkCredentials()
        let wifi = all.first { $0.id == wifiID && $0.credentials.kind == .wifi }?.credentials
        let thread = all.first { $0.id == threadID && $0.credentials.kind == .thread }?.credentials
        return (wifi, thread)
    }

    /// Every stored entry, Wi-Fi first, by ID.
    public func allNetworkCredentials() async throws(HubStoreError) -> [StoredNetworkCredentials] {
        try await onQueue { [self] () throws(HubStoreError) in
            var entries: [StoredNetworkCredentials] = []
            for values in try read(
                "SELECT kind, id, name, secret FROM network_credential_entries ORDER BY kind DESC, id")
            {
                let row = StoredRow(table: "network_credential_entries", values: values)
                let id = try row.text("id")
                switch try row.text("kind") {
                case "wifi":
                    entries.append(
                        .init(
                            id: id, credentials: .wifi(ssid: try row.blob("name"), credentials: try row.blob("secret")))
                    )
                case "thread":
                    entries.append(.init(id: id, credentials: .thread(operationalDataset: try row.blob("secret"))))
                default: break
                }
            }
            return entries
        }
    }

    /// Stores `credentials` under `id`, replacing those of their kind there; nothing a home model shows changes.
    public func setNetworkCredentials(
        _ credentials: NetworkCredentials, id: String = defaultCredentialsID
    ) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            let (name, secret): ([UInt8], [UInt8]) =
                switch credentials {
                case .wifi(let ssid, let passphrase): (ssid, passphrase)
                case .thread(let dataset): ([], dataset)
                }
            try write(touching: []) { transaction in
                try transaction.query(
                    """
                    INSERT OR REPLACE INTO network_credential_entries (kind, id, name, secret, updated_at)
                        VALUES (?, ?, ?, ?, ?)
                    """,
                    [.text(credentials.kind.rawValue), .text(id), .blob(name), .blob(secret), .date(Self.now())])
            }
        }
    }

    /// Removes the entry of `kind` under `id` (its secret with it); false when there was none.
    @discardableResult
    public func removeNetworkCredentials(
        _ kind: NetworkCredentials.Kind, id: String
    ) async throws(HubStoreError) -> Bool {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                !(try transaction.query(
                    "DELETE FROM network_credential_entries WHERE kind = ? AND id = ? RETURNING id",
                    [.text(kind.rawValue), .text(id)]
                ).isEmpty)
            }
        }
    }
}
