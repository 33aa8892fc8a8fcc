import Foundation
import MatterPlatform
import MatterTestSupport
import Testing

@testable import HomeHub

/// Network credentials by ID: kept, listed, removed; the one a hub stored before IDs existed is the "default" entry.
@Suite struct HubStoreNetworkCredentialsTests {
    static let dataset: [UInt8] = [0x02, 0x08] + Array(repeating: 0x11, count: 8) + [0x03, 0x04] + Array("Mesh".utf8)

    @Test func entriesAreKeptByKindAndIDAndRemovedOneByOne() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let home = NetworkCredentials.wifi(ssid: Array("Home".utf8), credentials: Array("correct horse".utf8))
            let guest = NetworkCredentials.wifi(ssid: Array("Guest".utf8), credentials: Array("battery staple".utf8))
            try await store.setNetworkCredentials(home)
            try await store.setNetworkCredentials(guest, id: "Guest")
            try await store.setNetworkCredentials(.thread(operationalDataset: Self.dataset), id: "Mesh")
            #expect(
                try await store.allNetworkCredentials() == [
                    .init(id: "Guest", credentials: guest), .init(id: "default", credentials: home),
                    .init(id: "Mesh", credentials: .thread(operationalDataset: Self.dataset)),
                ])
            let chosen = try await store.networkCredentials(wifiID: "Guest", threadID: "Mesh")
            #expect(chosen.wifi == guest && chosen.thread == .thread(operationalDataset: Self.dataset))
            #expect(try await store.networkCredentials().thread == nil, "no default Thread dataset")
            // The same ID for the other kind is another entry.
            #expect(try await store.removeNetworkCredentials(.thread, id: "Guest") == false)
            #expect(try await store.removeNetworkCredentials(.wifi, id: "Guest"))
            #expect(try await store.allNetworkCredentials().map(\.id) == ["default", "Mesh"])
        }
    }

    @Test func credentialsStoredBeforeIDsExistedBecomeTheDefaultEntry() async throws {
        try await withTemporaryDirectory { base in
            let path = base + "/hub.sqlite"
            // A database as a build of schema 13 left it, with its one Wi-Fi network.
            let database = try SQLiteDatabase(path: path)
            try database.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            try database.execute("INSERT INTO schema_version (version) VALUES (13)")
            for statement in HubSchema.migrations.prefix(13).joined() { try database.execute(statement) }
            try database.execute(
                "INSERT INTO network_credentials (kind, name, secret, updated_at) VALUES ('wifi', X'486F6D65', X'636F727265637420686F727365', 0)"
            )
            let store = try await HubStore(path: path)
            #expect(try await store.schemaVersion() == HubSchema.migrations.count)
            #expect(
                try await store.networkCredentials().wifi
                    == .wifi(ssid: Array("Home".utf8), credentials: Array("correct horse".utf8)))
        }
    }
}
