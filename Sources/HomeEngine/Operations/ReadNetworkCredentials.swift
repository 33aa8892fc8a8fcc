import HomeHub
import HomeRecords
import HubWire
import MatterNode

/// Which network credentials the hub holds, as they may be shown: each entry's ID, the Wi-Fi SSID, the Thread
/// network's name and Extended PAN ID; never a passphrase or a dataset.
public struct ReadNetworkCredentials: HubOperation {
    public static let name = "readNetworkCredentials"

    public init() {}

    public struct Entry: Codable, Sendable, Hashable {
        public let kind: NetworkCredentials.Kind
        public let id: String
        /// The SSID, or the Extended PAN ID in hex.
        public let shownName: String
        /// A Thread network's name, when its dataset holds one.
        public let networkName: String?

        public init(kind: NetworkCredentials.Kind, id: String, shownName: String, networkName: String?) {
            self.kind = kind
            self.id = id
            self.shownName = shownName
            self.networkName = networkName
        }
    }

    public struct Reply: Codable, Sendable, Hashable {
        public let entries: [Entry]

        /// The default entry's SSID.
        public var wifiSSID: String? { self[.wifi]?.shownName }
        /// The default entry's Extended PAN ID.
        public var threadExtendedPANID: String? { self[.thread]?.shownName }

        /// The entry of `kind` under `id`.
        public subscript(kind: NetworkCredentials.Kind, id: String = HubStore.defaultCredentialsID) -> Entry? {
            entries.first { $0.kind == kind && $0.id == id }
        }
    }

    public var access: HubAccess { .member }
    public var summary: String { "read the network credentials" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Reply {
        let stored = try await scope.engine.write { store async throws(HubStoreError) in
            try await store.allNetworkCredentials()
        }
        return Reply(
            entries: stored.map { entry in
                let name: String? =
                    if case .thread(let dataset) = entry.credentials {
                        ThreadOperationalDataset.networkName(of: dataset)
                    } else { nil }
                return Entry(
                    kind: entry.credentials.kind, id: entry.id, shownName: entry.credentials.shownName,
                    networkName: name)
            })
    }
}
