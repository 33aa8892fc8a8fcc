import HomeRecords
import MatterPlatform

extension Hub {
    /// Checks the hub can reach devices now: its link is open (opened now when it was not), and at least one usable
    /// interface (up, with an address) is among `interfaces`, or, when none are named, on the host. Throws why not.
    public func checkOnline(interfaces: [String]) async throws(HubUnavailable) {
        let usable = NetworkInterface.namesUpWithAddress()
        if interfaces.isEmpty {
            guard !usable.isEmpty else { throw HubUnavailable("no network interface is up with an address") }
        } else {
            guard interfaces.contains(where: usable.contains) else {
                throw HubUnavailable(
                    "none of the configured interfaces (\(interfaces.joined(separator: ", "))) is up with an address")
            }
        }
        _ = try await link()
    }
}

/// Why the hub cannot reach devices right now.
public struct HubUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
