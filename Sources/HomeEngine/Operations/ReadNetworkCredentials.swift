import HomeHub
import HomeRecords
import HubWire

/// Which network credentials the hub holds, as they may be shown: the Wi-Fi SSID and the Thread network's Extended
/// PAN ID, never a passphrase or a dataset.
public struct ReadNetworkCredentials: HubOperation {
    public static let name = "readNetworkCredentials"

    public init() {}

    public struct Reply: Codable, Sendable, Hashable {
        public let wifiSSID: String?
        public let threadExtendedPANID: String?
    }

    public var access: HubAccess { .member }
    public var summary: String { "read the network credentials" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Reply {
        let (wifi, thread) = try await scope.engine.write { store async throws(HubStoreError) in
            try await store.networkCredentials()
        }
        return Reply(wifiSSID: wifi?.shownName, threadExtendedPANID: thread?.shownName)
    }
}
