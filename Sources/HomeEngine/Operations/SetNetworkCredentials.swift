import HomeHub
import HomeRecords
import HubWire

/// A Wi-Fi network or Thread dataset the hub gives the devices it brings onto a network, under an ID ("default"
/// unless told); the owner's only, as they open the home's network. Checked before they are stored
/// (`NetworkCredentials.wifi(ssid:passphrase:)`, `.thread`). Wi-Fi without a passphrase keeps the one stored under
/// the ID for the same SSID (re-saving an entry without sending its secret again); never for another SSID.
public struct SetNetworkCredentials: HubOperation {
    public static let name = "setNetworkCredentials"
    public let wifiSSID: String?
    /// Nil: the one stored under the ID, for the same SSID.
    public let wifiPassphrase: [UInt8]?
    public let threadDataset: [UInt8]?
    public let id: String

    public init(wifiSSID: String, passphrase: [UInt8]?, id: String = HubStore.defaultCredentialsID) {
        self.wifiSSID = wifiSSID
        wifiPassphrase = passphrase
        threadDataset = nil
        self.id = id
    }

    public init(threadDataset: [UInt8], id: String = HubStore.defaultCredentialsID) {
        wifiSSID = nil
        wifiPassphrase = nil
        self.threadDataset = threadDataset
        self.id = id
    }

    public var access: HubAccess { .right(.network, structureID: nil) }
    public var summary: String { "set the network credentials" }

    /// What may be shown of what was stored: the SSID or the Extended PAN ID.
    public func run(in scope: HubOperationScope) async throws(HomeError) -> String {
        let stored = try await scope.engine.write { store async throws(HubStoreError) in
            try await store.allNetworkCredentials()
        }
        let credentials: NetworkCredentials
        do throws(NetworkCredentials.Invalid) {
            let id = try NetworkCredentials.validatedID(id)
            if let wifiSSID, threadDataset == nil {
                let passphrase: [UInt8]
                if let wifiPassphrase {
                    passphrase = wifiPassphrase
                } else {
                    passphrase = try Self.kept(for: wifiSSID, under: id, in: stored)
                }
                credentials = try .wifi(ssid: wifiSSID, passphrase: passphrase)
            } else if let threadDataset, wifiSSID == nil, wifiPassphrase == nil {
                credentials = try .thread(dataset: threadDataset)
            } else {
                throw NetworkCredentials.Invalid(
                    description: "give Wi-Fi credentials or a Thread dataset, one at a time")
            }
        } catch {
            throw HomeError(.invalidArgument, error.description)
        }
        try await scope.engine.write { store async throws(HubStoreError) in
            try await store.setNetworkCredentials(credentials, id: id)
        }
        return credentials.shownName
    }

    /// The passphrase stored under `id` for `ssid`: a secret is never paired with another network.
    private static func kept(
        for ssid: String, under id: String, in stored: [HubStore.StoredNetworkCredentials]
    ) throws(NetworkCredentials.Invalid) -> [UInt8] {
        guard
            case .wifi(let storedSSID, let passphrase)? = stored.first(where: {
                $0.id == id && $0.credentials.kind == .wifi
            })?.credentials, storedSSID == Array(ssid.utf8)
        else {
            throw NetworkCredentials.Invalid(
                description:
                    "no passphrase given, and none is stored under \"\(id)\" for \"\(ssid)\": a passphrase is kept only for the same network"
            )
        }
        return passphrase
    }
}

/// Removes the Wi-Fi network or Thread dataset stored under an ID, its secret with it; the owner's only.
public struct RemoveNetworkCredentials: HubOperation {
    public static let name = "removeNetworkCredentials"
    public let kind: NetworkCredentials.Kind
    public let id: String

    public init(_ kind: NetworkCredentials.Kind, id: String = HubStore.defaultCredentialsID) {
        self.kind = kind
        self.id = id
    }

    public var access: HubAccess { .right(.network, structureID: nil) }
    public var summary: String { "remove network credentials" }

    /// Whether there were any to remove.
    public func run(in scope: HubOperationScope) async throws(HomeError) -> Bool {
        try await scope.engine.write { store async throws(HubStoreError) in
            try await store.removeNetworkCredentials(kind, id: id)
        }
    }
}
