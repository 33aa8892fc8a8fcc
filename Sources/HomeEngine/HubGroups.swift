import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction
import MatterNode
import MatterSecureChannel
import MatterTLV
import Synchronization

/// The home's Matter groups (Matter Core §4.16), kept on its devices: each room is a group of its devices that have a
/// Groups cluster, and so is each named group (`GroupRecord`), all under the home's one key set. A node is given what it lacks — the key set, its GroupKeyMap,
/// its endpoints' groups, and an ACL entry that lets the home's groups Operate — whenever its devices join, leave or
/// move between rooms, and when it comes back online with less than it should hold (it was offline when its room
/// changed). What a node was last given is stored (`HubStore.groupsGiven`), so a node in step costs nothing.
final class HubGroups: Sendable {
    /// What one node should hold of the home's groups.
    struct Plan: Hashable, Sendable {
        /// Each endpoint with a Groups cluster, and its groups (its room's, and the named groups it is in), ascending.
        var endpoints: [UInt16: [UInt16]]
        var keySet: GroupKeySet
        /// Each group's name: its room's, or its own.
        var names: [UInt16: String]

        /// What is stored once the node holds it: the key set's ID and start, each endpoint's groups and the groups'
        /// names, so a new key, a moved device, a changed group or a renamed one differs from what the node holds.
        var fingerprint: String {
            "\(keyPart)|\(Self.endpointsPart(endpoints))|"
                + groupIDs.map { "\($0)=\(HubGroups.groupName(names[$0] ?? ""))" }.joined(separator: ";")
        }

        /// The key set as the fingerprint names it.
        var keyPart: String {
            "k\(keySet.id)@" + keySet.epochKeys.map { String($0.startTime) }.joined(separator: ",")
        }

        private static func endpointsPart(_ endpoints: [UInt16: [UInt16]]) -> String {
            endpoints.sorted { $0.key < $1.key }.map { endpoint, groups in
                "\(endpoint)=" + groups.map(String.init).joined(separator: ",")
            }.joined(separator: ";")
        }

        /// Whether a node that was given `fingerprint` holds `groupID` on `endpoint` under this plan's key: what it
        /// holds may be behind the plan (a change not given yet) and still hear the group.
        func holds(_ groupID: UInt16, on endpoint: UInt16, given fingerprint: String?) -> Bool {
            let parts = (fingerprint ?? "").split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0] == keyPart else { return false }
            return parts[1].split(separator: ";").contains { entry in
                let sides = entry.split(separator: "=")
                return sides.count == 2 && UInt16(sides[0]) == endpoint
                    && sides[1].split(separator: ",").contains { UInt16($0) == groupID }
            }
        }

        var groupIDs: [UInt16] { Set(endpoints.values.joined()).sorted() }
    }

    private struct State {
        /// The nodes being given their groups now, and whether another pass was asked for meanwhile.
        var syncing: [UInt64: Bool] = [:]
        var follower: Task<Void, Never>?
    }

    private let hub: Hub
    private let model: HomeModel
    private let live: LiveNodes
    private let state = Mutex(State())

    init(hub: Hub, model: HomeModel, live: LiveNodes) {
        self.hub = hub
        self.model = model
        self.live = live
    }

    // MARK: Plans

    /// What `nodeID` should hold now: its devices in rooms whose endpoint serves Groups (by the node's Descriptor as
    /// its connection last reported it); nil while the node's clusters are unknown.
    func plan(for nodeID: UInt64) async throws(HomeError) -> Plan? {
        let snapshot = model.snapshot
        guard let devices = snapshot.devices[nodeID], let cache = snapshot.views[nodeID]?.cache else { return nil }
        let groups: [String: UInt16]
        let keySet: GroupKeySet
        do {
            groups = try await hub.store.roomGroupIDs()
            keySet = try await hub.store.homeGroupKeySet()
        } catch {
            throw HomeError(error)
        }
        var endpoints: [UInt16: [UInt16]] = [:]
        var names: [UInt16: String] = [:]
        for device in devices where Self.servesGroups(cache, endpoint: device.id.endpoint) {
            var mine: Set<UInt16> = []
            if let roomID = device.roomID, let group = groups[roomID] {
                mine.insert(group)
                names[group] = device.roomName ?? ""
            }
            for named in snapshot.groups where named.members.contains(device.id) {
                mine.insert(named.id)
                names[named.id] = named.name
            }
            if !mine.isEmpty { endpoints[device.id.endpoint] = mine.sorted() }
        }
        return Plan(endpoints: endpoints, keySet: keySet, names: names)
    }

    static func servesGroups(_ cache: AttributeCache, endpoint: UInt16) -> Bool {
        (try? cache.value(DescriptorCluster.Attributes.serverList, endpoint: endpoint))?.contains(GroupsCluster.id)
            == true
    }

    // MARK: Keeping devices in step

    /// Gives `nodeID` its plan when what it holds differs; returns the plan it holds now. A node out of reach
    /// throws, and is given its plan when it comes back (`follow`).
    @discardableResult
    func sync(_ nodeID: UInt64) async throws(HomeError) -> Plan? {
        guard let plan = try await plan(for: nodeID) else { return nil }
        let given = try? await hub.store.groupsGiven(to: nodeID)
        guard given != plan.fingerprint else { return plan }
        let connection = try await live.connection(to: nodeID)
        do {
            try await give(plan, over: connection)
        } catch {
            throw HomeError(error, command: "the home's groups")
        }
        do {
            try await hub.store.setGroupsGiven(plan.fingerprint, to: nodeID)
        } catch {
            throw HomeError(error)
        }
        return plan
    }

    /// The node's key set, its GroupKeyMap (the hub's fabric's entries only: the attribute is fabric-scoped), each
    /// endpoint's group (its other groups of this fabric left), and an ACL entry granting the fabric's groups Operate.
    private func give(_ plan: Plan, over connection: NodeConnection) async throws(NodeConnectionError) {
        let management = GroupKeyManagementCluster.self
        let epoch = plan.keySet.epochKeys.map { (key: Nullable.value($0.key), start: Nullable.value($0.startTime)) }
        let pair = { (position: Int) in epoch.indices.contains(position) ? epoch[position] : (key: .null, start: .null)
        }
        if !plan.endpoints.isEmpty {
            try await connection.invoke(
                management.Commands.KeySetWrite(
                    groupKeySet: management.GroupKeySetStruct(
                        groupKeySetID: plan.keySet.id, groupKeySecurityPolicy: .trustFirst,
                        epochKey0: pair(0).key, epochStartTime0: pair(0).start, epochKey1: pair(1).key,
                        epochStartTime1: pair(1).start, epochKey2: pair(2).key, epochStartTime2: pair(2).start,
                        groupKeyMulticastPolicy: .perGroupID)),
                endpoint: 0)
        }
        let keyMap = management.Attributes.groupKeyMap
        let mappings = plan.groupIDs.map {
            TLVElement(management.GroupKeyMapStruct(groupId: $0, groupKeySetID: plan.keySet.id).tlvValue())
        }
        try await check(
            connection.write(
                TLVElement(.array(mappings)), endpoint: 0, cluster: keyMap.cluster.rawValue,
                attribute: keyMap.id.rawValue, timedWindow: nil), "write GroupKeyMap")
        let snapshot = model.snapshot
        let cache = await connection.cache
        for device in snapshot.devices[connection.nodeID] ?? []
        where Self.servesGroups(cache, endpoint: device.id.endpoint) {
            let endpoint = device.id.endpoint
            try await connection.invoke(GroupsCluster.Commands.RemoveAllGroups(), endpoint: endpoint)
            for group in plan.endpoints[endpoint] ?? [] {
                let response = try await connection.invoke(
                    GroupsCluster.Commands.AddGroup(groupID: group, groupName: Self.groupName(plan.names[group] ?? "")),
                    endpoint: endpoint)
                try check(InteractionModelStatus(rawValue: response.status), "AddGroup on endpoint \(endpoint)")
            }
        }
        if !plan.endpoints.isEmpty { try await grantGroups(over: connection) }
    }

    /// Matter Application Clusters §1.3.7.1: a group name is at most 16 bytes; a room's is cut there, on a character.
    static func groupName(_ name: String) -> String {
        var cut = ""
        for character in name
        where cut.utf8.count + String(character).utf8.count <= NodeConstants.groupNameMaximumLength {
            cut.append(character)
        }
        return cut
    }

    /// The ACL entry every device of the home needs for its groups: Operate for any group of the hub's fabric (only
    /// the hub holds the fabric's group keys), appended once beside the entries there — never a rewrite of the list,
    /// which could drop an entry this read missed (the hub's own Administer among them).
    private func grantGroups(over connection: NodeConnection) async throws(NodeConnectionError) {
        let acl = AccessControlCluster.Attributes.acl
        let path = AttributePathIB(endpoint: 0, cluster: acl.cluster.rawValue, attribute: acl.id.rawValue)
        let report = try await connection.read([path], isFabricFiltered: true)
        var items: [TLVElement] = []
        for case .data(let data) in report.attributeReports {
            switch (data.path.listIndex, data.data.value) {
            case (nil, .array(let list)): items = list
            case (.append?, _): items.append(data.data)
            default: break
            }
        }
        let granted = items.contains { item in
            guard let entry = try? AccessControlCluster.AccessControlEntryStruct(tlv: item) else { return false }
            return entry.authMode == .group && entry.privilege == .operate && entry.subjects == .null
                && entry.targets == .null
        }
        guard !granted else { return }
        let grant = AccessControlCluster.AccessControlEntryStruct(
            privilege: .operate, authMode: .group, subjects: .null, targets: .null)
        try await check(
            connection.append(
                TLVElement(grant.tlvValue()), endpoint: 0, cluster: acl.cluster.rawValue, attribute: acl.id.rawValue),
            "add the groups' ACL entry")
    }

    private func check(_ status: InteractionModelStatus, _ step: String) throws(NodeConnectionError) {
        guard status == .success else {
            throw .interaction(
                InteractionClientError(
                    operation: step, reason: .interaction(.status(StatusIB(status: status), path: nil))))
        }
    }

    // MARK: Sending

    /// Sends `command` to every member of `groupID` in one group message from the hub's node, sealed with the home's
    /// key set (the hub's fabric holds it and maps every room's and named group's ID to it). Throws when the message cannot go out
    /// (the hub was given no network interface for it, a socket refused it).
    func send(_ command: GroupInvokeRequest.Command, toGroup groupID: UInt16) async throws(HomeError) {
        try await live.startNode()
        let keySet: GroupKeySet
        let groupIDs: [String: UInt16]
        do {
            keySet = try await hub.store.homeGroupKeySet()
            groupIDs = try await hub.store.roomGroupIDs()
        } catch {
            throw HomeError(error)
        }
        let node: LocalNode
        do {
            node = try await hub.link().node
        } catch {
            throw HomeError(.unavailable, error.description)
        }
        let everyGroup = Set(groupIDs.values).union(model.snapshot.groups.map(\.id)).sorted()
        let groups = FabricGroups(
            keySets: [keySet],
            keyMap: everyGroup.map { FabricGroups.KeyMapping(groupID: $0, keySetID: keySet.id) })
        let fabricIndex = NodeConstants.fabricIndices.lowerBound
        do {
            try await node.update { model in
                guard let position = model.node.fabrics.firstIndex(where: { $0.index == fabricIndex }) else { return }
                model.node.fabrics[position].groups = groups
            }
            try await node.send(
                GroupInvokeRequest(commands: [command]), toGroup: groupID, fabricIndex: fabricIndex,
                utcMicroseconds: HubStore.matterEpochMicroseconds(Date()))
        } catch let error as NodeError {
            throw HomeError(
                .unavailable, "the group message to group 0x\(String(groupID, radix: 16, uppercase: true)): \(error)")
        } catch {
            throw HomeError(.internal, "\(error)")
        }
    }

    // MARK: Following the home

    /// From now on, gives each node its groups when its devices are added, move or lose their room, and when it comes
    /// online, in the background (one pass per node at a time; a change during a pass asks for another).
    func follow() {
        let changes = model.changes(.home)
        state.withLock { state in
            guard state.follower == nil else { return }
            state.follower = Task { [weak self] in
                for await update in changes {
                    guard let self else { return }
                    switch update {
                    case .changes(let changes): self.schedule(Self.affectedNodes(changes, in: self.model.snapshot))
                    case .fellBehind: self.schedule(Set(self.model.snapshot.devices.keys))
                    }
                }
            }
        }
    }

    /// A new epoch key for the home's groups (a node that held the old one left), given to every node in the
    /// background as its groups are.
    func rekey() async throws(HomeError) {
        do {
            try await hub.store.rotateHomeGroupKeySet()
        } catch {
            throw HomeError(error)
        }
        schedule(Set(model.snapshot.devices.keys))
    }

    func stop() {
        state.withLock { state in
            state.follower?.cancel()
            state.follower = nil
        }
    }

    static func affectedNodes(_ changes: [HomeModel.Change], in snapshot: HomeModel.Snapshot) -> Set<UInt64> {
        var nodes: Set<UInt64> = []
        for change in changes {
            switch change {
            case .deviceAdded(let id), .deviceMoved(let id): nodes.insert(id.nodeID)
            case .roomRenamed: nodes.formUnion(snapshot.devices.keys)
            case .connectivity(let nodeID, .online), .typesChanged(let nodeID): nodes.insert(nodeID)
            // A room or group changed or gone: the nodes whose devices it names, then or now, are not known here, and
            // a node in step costs a comparison.
            case .roomRemoved, .groupAdded, .groupChanged, .groupRemoved: nodes.formUnion(snapshot.devices.keys)
            default: break
            }
        }
        return nodes
    }

    private func schedule(_ nodes: Set<UInt64>) {
        for nodeID in nodes {
            let start = state.withLock { state -> Bool in
                if state.syncing[nodeID] != nil {
                    state.syncing[nodeID] = true
                    return false
                }
                state.syncing[nodeID] = false
                return true
            }
            guard start else { continue }
            Task { [weak self] in
                while let self {
                    _ = try? await self.sync(nodeID)
                    let again = self.state.withLock { state -> Bool in
                        if state.syncing[nodeID] == true {
                            state.syncing[nodeID] = false
                            return true
                        }
                        state.syncing[nodeID] = nil
                        return false
                    }
                    if !again { return }
                }
            }
        }
    }
}
