import HomeRecords
import MatterNode
import MatterPlatform

extension Hub {
    /// Opens a CASE session to a commissioned node from what the store holds (its operational DNS-SD record first
    /// when `interfaces` are given), and records the address that answered as the node's first. It resumes the
    /// node's last CASE session when the node still knows it (after a restart too), and stores the record the new
    /// session leaves.
    public func establishSession(
        to nodeID: UInt64, interfaces: [String], over transport: MatterTransport
    ) async throws -> NodeSession {
        guard let node = try await store.node(nodeID), node.state == .commissioned else {
            throw HubError.unknownNode(nodeID)
        }
        return try await establishSession(to: node, interfaces: interfaces, over: transport)
    }

    /// The same for a node in any state: one whose commissioning was interrupted may hold our NOC all the same.
    func establishSession(
        to node: NodeRecord, interfaces: [String], over transport: MatterTransport
    ) async throws -> NodeSession {
        let nodeID = node.nodeID
        let address = try await operationalAddress(of: node, interfaces: interfaces)
        let resumption = await store.caseResumption(of: nodeID)
        let established = try await SessionEstablishment.case(
            with: address, nodeID: nodeID, credentials: authority.operationalCredentials,
            validator: authority.peerValidator, over: transport,
            resumption: resumption)
        if let record = established.established.resumption { store.saveCASEResumption(record) }
        if node.addresses.first != address {
            try await store.updateReachability(
                of: nodeID, addresses: [address] + node.addresses.filter { $0 != address },
                mrpParameters: node.mrpParameters)
        }
        return NodeSession(session: established.session, peerParameters: established.established.mrpParameters)
    }
}
