import Foundation
import HomeRecords
import MatterDiscovery
import MatterMessaging
import MatterPlatform

/// The node table: a node enters as `commissioning` before AddNOC and becomes `commissioned` only after
/// CommissioningComplete, so a crash in between leaves a row `pendingCommissionings()` finds.
extension HubStore {
    /// Inserts a node in state `commissioning`, before its AddNOC is sent; with `session`, as part of that open add-device session.
    @discardableResult
    public func beginCommissioning(
        nodeID: UInt64, vendorID: UInt16, productID: UInt16, attestation: NodeRecord.Attestation,
        addresses: [SocketAddress] = [], mrpParameters: MRPParameters? = nil,
        session: String? = nil, owner: ProcessIdentity? = .current()
    ) async throws(HubStoreError) -> NodeRecord {
        try await onQueue { [self] () throws(HubStoreError) in
            let now = Self.now()
            let node = NodeRecord(
                nodeID: nodeID, vendorID: vendorID, productID: productID, attestation: attestation,
                state: .commissioning,
                addresses: addresses, mrpParameters: mrpParameters, createdAt: now, updatedAt: now, owner: owner)
            try write(touching: [nodeID]) { transaction in
                if let existing = try transaction.query(
                    "SELECT state FROM nodes WHERE node_id = ?", [.identifier(nodeID)]
                )
                .first {
                    throw HubStoreError.nodeExists(nodeID, try Self.state(StoredRow(table: "nodes", values: existing)))
                }
                let mrp = Self.mrpValues(mrpParameters)
                try transaction.query(
                    """
                    INSERT INTO nodes (node_id, vendor_id, product_id, attestation_verdict, attestation_trusted, state,
                                       mrp_idle_ms, mrp_active_ms, mrp_active_threshold_ms, created_at, updated_at,
                                       owner_pid, owner_start_ticks)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .identifier(nodeID), .integer(Int64(vendorID)), .integer(Int64(productID)),
                        .text(attestation.verdict),
                        .integer(attestation.trusted ? 1 : 0),
                        .text(NodeRecord.CommissioningState.commissioning.rawValue),
                        mrp[0], mrp[1], mrp[2], .date(now), .date(now),
                        owner.map { .integer(Int64($0.pid)) } ?? .null,
                        owner.map { .integer(Int64(bitPattern: $0.startTicks)) } ?? .null,
                    ])
                try Self.replaceAddresses(addresses, of: nodeID, in: transaction)
                // In the same transaction: a cancelled session cannot miss a node that is starting, and a node cannot start in a closed session.
                if let session { try Self.addSessionNode(nodeID, session: session, in: transaction) }
            }
            return node
        }
    }

    /// A step of a node's commissioning finished (AddNOC and after): the row says how far it got.
    public func recordStep(_ step: CommissioningStep, of nodeID: UInt64) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                try transaction.query(
                    "UPDATE nodes SET step_reached = ? WHERE node_id = ? AND state = ?",
                    [
                        .text(step.rawValue), .identifier(nodeID),
                        .text(NodeRecord.CommissioningState.commissioning.rawValue),
                    ])
            }
        }
    }

    /// CommissioningComplete succeeded: the node is part of the home.
    public func markCommissioned(_ nodeID: UInt64) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try transition(nodeID, from: .commissioning, to: .commissioned)
        }
    }

    /// CommissioningComplete succeeded: in one transaction the node becomes commissioned with what its interview
    /// learned (identity, endpoints; nil when the interview failed), where it answered, and its devices named `deviceName`
    /// in `room`. A reader sees the node either still commissioning or complete with its devices, never in between.
    ///
    /// `resuming: .failed` finishes a commissioning a crash interrupted, found later holding our fabric.
    public func finishCommissioning(
        _ nodeID: UInt64, description: NodeDescription?, addresses: [SocketAddress], mrpParameters: MRPParameters?,
        deviceName: String, room: String?, resuming state: NodeRecord.CommissioningState = .commissioning
    ) async throws(HubStoreError) -> [DeviceID] {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                try Self.transition(nodeID, from: state, to: .commissioned, in: transaction)
                if state == .failed {
                    try transaction.query(
                        "UPDATE nodes SET recovered_at = ? WHERE node_id = ?", [.date(Self.now()), .identifier(nodeID)])
                }
                if let description {
                    try Self.updateIdentity(
                        of: nodeID, vendorName: description.vendorName, productName: description.productName,
                        serialNumber: description.serialNumber, in: transaction)
                    try Self.replaceEndpoints(
                        description.endpointDeviceTypes, tags: description.endpointSemanticTags, of: nodeID,
                        in: transaction
                    )
                }
                if !addresses.isEmpty {
                    try Self.updateReachability(
                        of: nodeID, addresses: addresses, mrpParameters: mrpParameters, in: transaction)
                }
                return try Self.insertDevices(of: nodeID, named: deviceName, inRoom: room, in: transaction)
            }
        }
    }

    /// The commissioning was abandoned (or found pending after a crash); the node can be commissioned again.
    public func markFailed(_ nodeID: UInt64) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try transition(nodeID, from: .commissioning, to: .failed)
        }
    }

    /// Removes the node with its addresses, endpoints, devices and its place in the add-device session. Its node ID
    /// stays allocated.
    public func deleteNode(_ nodeID: UInt64) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                guard try !transaction.query("SELECT 1 FROM nodes WHERE node_id = ?", [.identifier(nodeID)]).isEmpty
                else {
                    throw HubStoreError.unknownNode(nodeID)
                }
                try transaction.query("DELETE FROM nodes WHERE node_id = ?", [.identifier(nodeID)])
                try transaction.query(
                    "DELETE FROM commissioning_session_nodes WHERE node_id = ?", [.identifier(nodeID)])
            }
        }
    }

    /// What the device said about itself once it could be read (Basic Information cluster).
    public func updateIdentity(
        of nodeID: UInt64, vendorName: String?, productName: String?, serialNumber: String?
    ) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                try Self.updateIdentity(
                    of: nodeID, vendorName: vendorName, productName: productName, serialNumber: serialNumber,
                    in: transaction)
            }
        }
    }

    /// Where the node was last reached, and the MRP intervals it advertised there.
    public func updateReachability(
        of nodeID: UInt64, addresses: [SocketAddress], mrpParameters: MRPParameters?
    ) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                try Self.updateReachability(
                    of: nodeID, addresses: addresses, mrpParameters: mrpParameters, in: transaction)
            }
        }
    }

    /// Replaces the node's endpoints, their device types and their semantic tags (from its Descriptor clusters); tags
    /// keep the order given.
    public func setEndpoints(
        _ endpoints: [EndpointDeviceType], tags: [EndpointSemanticTag] = [], of nodeID: UInt64
    ) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                try Self.replaceEndpoints(endpoints, tags: tags, of: nodeID, in: transaction)
            }
        }
    }

    /// The node's semantic tags, by endpoint and in the order the device listed them.
    public func semanticTags(of nodeID: UInt64) async throws(HubStoreError) -> [EndpointSemanticTag] {
        try await onQueue { [self] () throws(HubStoreError) in
            try semanticTags(where: "node_id = ?", [.identifier(nodeID)]).map(\.tag)
        }
    }

    /// Tags with their node, in node, endpoint and list order.
    func semanticTags(
        where condition: String, _ arguments: [SQLiteDatabase.Value]
    ) throws(HubStoreError) -> [(nodeID: UInt64, tag: EndpointSemanticTag)] {
        var tags: [(nodeID: UInt64, tag: EndpointSemanticTag)] = []
        for values in try read(
            "SELECT * FROM endpoint_tags WHERE \(condition) ORDER BY node_id, endpoint, position", arguments)
        {
            let row = StoredRow(table: "endpoint_tags", values: values)
            tags.append((try row.identifier("node_id"), try Self.semanticTag(row)))
        }
        return tags
    }

    public func endpoints(of nodeID: UInt64) async throws(HubStoreError) -> [EndpointDeviceType] {
        try await onQueue { [self] () throws(HubStoreError) in
            var endpoints: [EndpointDeviceType] = []
            for values in try read(
                "SELECT * FROM endpoints WHERE node_id = ? ORDER BY endpoint, device_type", [.identifier(nodeID)])
            {
                let row = StoredRow(table: "endpoints", values: values)
                endpoints.append(
                    EndpointDeviceType(
                        endpoint: try row.narrow("endpoint", as: UInt16.self),
                        deviceType: try row.narrow("device_type", as: UInt32.self),
                        revision: try row.narrow("revision", as: UInt16.self)))
            }
            return endpoints
        }
    }

    public func node(_ nodeID: UInt64) async throws(HubStoreError) -> NodeRecord? {
        try await onQueue { [self] () throws(HubStoreError) in
            try nodes(where: "node_id = ?", [.identifier(nodeID)]).first
        }
    }

    /// Every node, in order of creation.
    public func nodes() async throws(HubStoreError) -> [NodeRecord] {
        try await onQueue { [self] () throws(HubStoreError) in
            try nodes(where: "1", [])
        }
    }

    /// Nodes whose commissioning started but neither completed nor was marked failed: after a crash, these
    /// are rolled back (`markFailed` or `deleteNode`) before anything else.
    public func pendingCommissionings() async throws(HubStoreError) -> [NodeRecord] {
        try await onQueue { [self] () throws(HubStoreError) in
            try nodes(where: "state = ?", [.text(NodeRecord.CommissioningState.commissioning.rawValue)])
        }
    }

    /// Nodes whose commissioning was interrupted (a process that died mid-way) and marked failed: each may hold
    /// our NOC, if the interruption came after CommissioningComplete.
    public func interruptedCommissionings() async throws(HubStoreError) -> [NodeRecord] {
        try await onQueue { [self] () throws(HubStoreError) in try interruptedOnQueue() }
    }

    /// `interruptedCommissionings`, on the store's queue.
    func interruptedOnQueue() throws(HubStoreError) -> [NodeRecord] {
        try nodes(where: "state = ?", [.text(NodeRecord.CommissioningState.failed.rawValue)])
    }

    /// The node, when it is one an interrupted commissioning left; on the store's queue.
    func interruptedOnQueue(_ nodeID: UInt64) throws(HubStoreError) -> NodeRecord? {
        try nodes(
            where: "node_id = ? AND state = ?",
            [.identifier(nodeID), .text(NodeRecord.CommissioningState.failed.rawValue)]
        ).first
    }

    func nodes(
        where condition: String, _ bindings: [SQLiteDatabase.Value]
    ) throws(HubStoreError) -> [NodeRecord] {
        var nodes: [NodeRecord] = []
        let addresses = try addresses(ofNodesWhere: condition, bindings)
        for values in try read("SELECT * FROM nodes WHERE \(condition) ORDER BY created_at, rowid", bindings) {
            let row = StoredRow(table: "nodes", values: values)
            let nodeID = try row.identifier("node_id")
            nodes.append(
                NodeRecord(
                    nodeID: nodeID, vendorID: try row.narrow("vendor_id", as: UInt16.self),
                    productID: try row.narrow("product_id", as: UInt16.self),
                    vendorName: try row.optionalText("vendor_name"), productName: try row.optionalText("product_name"),
                    serialNumber: try row.optionalText("serial_number"), name: try row.optionalText("name"),
                    attestation: NodeRecord.Attestation(
                        verdict: try row.text("attestation_verdict"),
                        trusted: try row.integer("attestation_trusted") != 0),
                    state: try Self.state(row), addresses: addresses[nodeID] ?? [],
                    mrpParameters: try Self.mrpParameters(row),
                    createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
                    owner: try Self.owner(row), stepReached: try Self.stepReached(row),
                    recoveredAt: try row.optionalDate("recovered_at")))
        }
        return nodes
    }

    /// The addresses of every node the condition selects, in one query (a home may have thousands of nodes).
    private func addresses(
        ofNodesWhere condition: String, _ bindings: [SQLiteDatabase.Value]
    ) throws(HubStoreError) -> [UInt64: [SocketAddress]] {
        var addresses: [UInt64: [SocketAddress]] = [:]
        let rows = try read(
            "SELECT * FROM node_addresses WHERE node_id IN (SELECT node_id FROM nodes WHERE \(condition)) ORDER BY node_id, position",
            bindings)
        for values in rows {
            let row = StoredRow(table: "node_addresses", values: values)
            let nodeID = try row.identifier("node_id")
            let bytes = try row.blob("address")
            let port = try row.narrow("port", as: UInt16.self)
            if let address = IPv4Address(bytes: bytes) {
                addresses[nodeID, default: []].append(.ipv4(address, port: port))
            } else if let address = IPv6Address(bytes: bytes) {
                addresses[nodeID, default: []].append(
                    .ipv6(address, port: port, scopeID: try row.narrow("scope_id", as: UInt32.self)))
            } else {
                throw row.corrupt("address", "\(bytes.count) bytes, expected 4 (IPv4) or 16 (IPv6)")
            }
        }
        return addresses
    }

    private func transition(
        _ nodeID: UInt64, from: NodeRecord.CommissioningState, to: NodeRecord.CommissioningState
    ) throws(HubStoreError) {
        try write(touching: [nodeID]) { transaction in try Self.transition(nodeID, from: from, to: to, in: transaction)
        }
    }

    private static func transition(
        _ nodeID: UInt64, from: NodeRecord.CommissioningState, to: NodeRecord.CommissioningState,
        in transaction: SQLiteDatabase.Transaction
    ) throws {
        guard
            let values = try transaction.query("SELECT state FROM nodes WHERE node_id = ?", [.identifier(nodeID)]).first
        else {
            throw HubStoreError.unknownNode(nodeID)
        }
        let state = try Self.state(StoredRow(table: "nodes", values: values))
        guard state == from else { throw HubStoreError.wrongState(nodeID, state, expected: from) }
        try transaction.query(
            "UPDATE nodes SET state = ?, updated_at = ? WHERE node_id = ?",
            [.text(to.rawValue), .date(Self.now()), .identifier(nodeID)])
    }

    private static func updateIdentity(
        of nodeID: UInt64, vendorName: String?, productName: String?, serialNumber: String?,
        in transaction: SQLiteDatabase.Transaction
    ) throws {
        try requireChange(
            transaction.query(
                "UPDATE nodes SET vendor_name = ?, product_name = ?, serial_number = ?, updated_at = ? WHERE node_id = ? RETURNING node_id",
                [
                    .optionalText(vendorName), .optionalText(productName), .optionalText(serialNumber),
                    .date(Self.now()), .identifier(nodeID),
                ]), nodeID)
    }

    private static func updateReachability(
        of nodeID: UInt64, addresses: [SocketAddress], mrpParameters: MRPParameters?,
        in transaction: SQLiteDatabase.Transaction
    ) throws {
        let mrp = mrpValues(mrpParameters)
        try requireChange(
            transaction.query(
                "UPDATE nodes SET mrp_idle_ms = ?, mrp_active_ms = ?, mrp_active_threshold_ms = ?, updated_at = ? WHERE node_id = ? RETURNING node_id",
                [mrp[0], mrp[1], mrp[2], .date(Self.now()), .identifier(nodeID)]), nodeID)
        try replaceAddresses(addresses, of: nodeID, in: transaction)
    }

    static func storedEndpoints(
        of nodeID: UInt64, in transaction: SQLiteDatabase.Transaction
    ) throws -> [EndpointDeviceType] {
        try transaction.query(
            "SELECT * FROM endpoints WHERE node_id = ? ORDER BY endpoint, device_type", [.identifier(nodeID)]
        ).map { values in
            let row = StoredRow(table: "endpoints", values: values)
            return EndpointDeviceType(
                endpoint: try row.narrow("endpoint", as: UInt16.self),
                deviceType: try row.narrow("device_type", as: UInt32.self),
                revision: try row.narrow("revision", as: UInt16.self))
        }
    }

    static func storedTags(
        of nodeID: UInt64, in transaction: SQLiteDatabase.Transaction
    ) throws -> [EndpointSemanticTag] {
        try transaction.query(
            "SELECT * FROM endpoint_tags WHERE node_id = ? ORDER BY endpoint, position", [.identifier(nodeID)]
        ).map { values in
            try semanticTag(StoredRow(table: "endpoint_tags", values: values))
        }
    }

    private static func semanticTag(_ row: StoredRow) throws(HubStoreError) -> EndpointSemanticTag {
        EndpointSemanticTag(
            endpoint: try row.narrow("endpoint", as: UInt16.self),
            manufacturerCode: try row.optionalInteger("manufacturer_code").map { value throws(HubStoreError) in
                guard let code = UInt16(exactly: value) else {
                    throw row.corrupt("manufacturer_code", "\(value) does not fit UInt16")
                }
                return code
            },
            namespaceID: try row.narrow("namespace_id", as: UInt8.self), tag: try row.narrow("tag", as: UInt8.self),
            label: try row.optionalText("label"))
    }

    static func replaceEndpoints(
        _ endpoints: [EndpointDeviceType], tags: [EndpointSemanticTag], of nodeID: UInt64,
        in transaction: SQLiteDatabase.Transaction
    ) throws {
        guard try !transaction.query("SELECT 1 FROM nodes WHERE node_id = ?", [.identifier(nodeID)]).isEmpty else {
            throw HubStoreError.unknownNode(nodeID)
        }
        try transaction.query("DELETE FROM endpoints WHERE node_id = ?", [.identifier(nodeID)])
        for endpoint in endpoints {
            try transaction.query(
                "INSERT INTO endpoints (node_id, endpoint, device_type, revision) VALUES (?, ?, ?, ?)",
                [
                    .identifier(nodeID), .integer(Int64(endpoint.endpoint)), .integer(Int64(endpoint.deviceType)),
                    .integer(Int64(endpoint.revision)),
                ])
        }
        try transaction.query("DELETE FROM endpoint_tags WHERE node_id = ?", [.identifier(nodeID)])
        for (position, tag) in tags.enumerated() {
            try transaction.query(
                "INSERT INTO endpoint_tags (node_id, endpoint, position, manufacturer_code, namespace_id, tag, label) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    .identifier(nodeID), .integer(Int64(tag.endpoint)), .integer(Int64(position)),
                    tag.manufacturerCode.map { .integer(Int64($0)) } ?? .null, .integer(Int64(tag.namespaceID)),
                    .integer(Int64(tag.tag)),
                    .optionalText(tag.label),
                ])
        }
    }

    private static func requireChange(_ rows: [SQLiteDatabase.Row], _ nodeID: UInt64) throws(HubStoreError) {
        guard !rows.isEmpty else { throw .unknownNode(nodeID) }
    }

    private static func replaceAddresses(
        _ addresses: [SocketAddress], of nodeID: UInt64, in transaction: SQLiteDatabase.Transaction
    ) throws {
        try transaction.query("DELETE FROM node_addresses WHERE node_id = ?", [.identifier(nodeID)])
        for (position, address) in addresses.enumerated() {
            let (bytes, scopeID): ([UInt8], UInt32) =
                switch address {
                case .ipv4(let host, _): (host.bytes, 0)
                case .ipv6(let host, _, let scopeID): (host.bytes, scopeID)
                }
            try transaction.query(
                "INSERT INTO node_addresses (node_id, position, address, port, scope_id) VALUES (?, ?, ?, ?, ?)",
                [
                    .identifier(nodeID), .integer(Int64(position)), .blob(bytes), .integer(Int64(address.port)),
                    .integer(Int64(scopeID)),
                ])
        }
    }

    private static func owner(_ row: StoredRow) throws(HubStoreError) -> ProcessIdentity? {
        guard let pid = try row.optionalInteger("owner_pid"), let ticks = try row.optionalInteger("owner_start_ticks")
        else { return nil }
        guard let narrow = Int32(exactly: pid) else { throw row.corrupt("owner_pid", "\(pid) is not a process ID") }
        return ProcessIdentity(pid: narrow, startTicks: UInt64(bitPattern: ticks))
    }

    private static func stepReached(_ row: StoredRow) throws(HubStoreError) -> CommissioningStep? {
        guard let text = try row.optionalText("step_reached") else { return nil }
        guard let step = CommissioningStep(rawValue: text) else {
            throw row.corrupt("step_reached", "\"\(text)\" is no commissioning step")
        }
        return step
    }

    private static func state(_ row: StoredRow) throws(HubStoreError) -> NodeRecord.CommissioningState {
        let text = try row.text("state")
        guard let state = NodeRecord.CommissioningState(rawValue: text) else {
            throw row.corrupt("state", "unknown state \"\(text)\"")
        }
        return state
    }

    private static func mrpValues(_ parameters: MRPParameters?) -> [SQLiteDatabase.Value] {
        guard let parameters else { return [.null, .null, .null] }
        return [parameters.idleInterval, parameters.activeInterval, parameters.activeThreshold].map {
            .integer(milliseconds($0))
        }
    }

    private static func mrpParameters(_ row: StoredRow) throws(HubStoreError) -> MRPParameters? {
        guard let idle = try row.optionalInteger("mrp_idle_ms"), let active = try row.optionalInteger("mrp_active_ms"),
            let threshold = try row.optionalInteger("mrp_active_threshold_ms")
        else { return nil }
        return MRPParameters(
            idleInterval: .milliseconds(idle), activeInterval: .milliseconds(active),
            activeThreshold: .milliseconds(threshold))
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
