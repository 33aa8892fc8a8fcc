import HomeHub
import HomeRecords
import HubWire

/// The Wi-Fi network or Thread dataset the hub gives the devices it brings onto a network; the owner's only, as they
/// open the home's network. Checked before they are stored (`NetworkCredentials.wifi(ssid:passphrase:)`, `.thread`).
public struct SetNetworkCredentials: HubOperation {
    public static let name = "setNetworkCredentials"
    public let wifiSSID: String?
    public let wifiPassphrase: [UInt8]?
    public let threadDataset: [UInt8]?

    public init(wifiSSID: String, passphrase: [UInt8]) {
        self.wifiSSID = wifiSSID
        wifiPassphrase = passphrase
        threadDataset = nil
    }

    public init(threadDataset: [UInt8]) {
        wifiSSID = nil
        wifiPassphrase = nil
        self.threadDataset = threadDataset
    }

    public var access: HubAccess { .owner }
    public var summary: String { "set the network credentials" }

    /// What may be shown of what was stored: the SSID or the Extended PAN ID.
    public func run(in scope: HubOperationScope) async throws(HomeError) -> String {
        let credentials: NetworkCredentials
        do throws(NetworkCredentials.Invalid) {
            if let wifiSSID, let wifiPassphrase, threadDataset == nil {
                credentials = try .wifi(ssid: wifiSSID, passphrase: wifiPassphrase)
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
            try await store.setNetworkCredentials(credentials)
        }
        return credentials.shownName
    }
}
