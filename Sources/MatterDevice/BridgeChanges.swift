import MatterNode

/// What a bridge changed in its composition while running: the bridged devices it added, and every endpoint ID it
/// retired by removing a bridged device. Matter Core §9.2.1 and §9.12.6 (changes to the set of bridged devices): a new
/// bridged device takes the next endpoint ID, never a removed one's, so a controller never mistakes a new device for
/// one it knew; the retired IDs are kept, with the added devices, in the state file, so that a restart keeps both.
public struct BridgeChanges: Codable, Hashable, Sendable {
    public var added: [BridgedDevice]
    public var retired: [UInt16]

    public init(added: [BridgedDevice] = [], retired: [UInt16] = []) {
        self.added = added
        self.retired = retired
    }

    /// The bridge's endpoints once changed: the retired ones gone (from every PartsList too), the added ones parts of
    /// the Aggregator.
    func applied(to endpoints: [Endpoint], bridgeUniqueID: String) -> [Endpoint] {
        var changed = endpoints.filter { !retired.contains($0.id) }
        for index in changed.indices {
            changed[index].parts.removeAll(where: retired.contains)
        }
        guard let aggregator = changed.firstIndex(where: \.isAggregator) else { return changed }
        for device in added {
            changed[aggregator].parts.append(device.endpoint)
            changed.append(device.composed(bridgeUniqueID: bridgeUniqueID))
        }
        return changed
    }

    /// The ID for the next bridged device: past every endpoint the node has or had; nil once none is left.
    func nextEndpoint(after existing: [UInt16]) -> UInt16? {
        let highest = (existing + retired).max() ?? 0
        return highest < NodeConstants.endpointIDs.upperBound ? highest + 1 : nil
    }
}
