import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterTLV

// Matter Application Clusters §1.3 Groups cluster, server: puts its endpoint in and out of the accessing fabric's
// groups (the fabric's GroupTable, `FabricGroups`). A group can be joined only once a key set is mapped to it, so a
// member can always open the group's messages (§1.3.7.1: UNSUPPORTED_ACCESS otherwise).
public struct GroupsServer: ClusterServer {
    private typealias Cluster = GroupsCluster
    private typealias Commands = GroupsCluster.Commands

    /// Until when the endpoint identifies itself, as its Identify cluster says (AddGroupIfIdentifying).
    private var identifyingUntil: Instant?

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision, featureMap: Cluster.Feature.groupNames.rawValue,
            attributes: [AttributeDescription(Cluster.Attributes.nameSupport)],
            acceptedCommands: [
                CommandDescription(Commands.AddGroup.self), CommandDescription(Commands.ViewGroup.self),
                CommandDescription(Commands.GetGroupMembership.self), CommandDescription(Commands.RemoveGroup.self),
                CommandDescription(Commands.RemoveAllGroups.self),
                CommandDescription(Commands.AddGroupIfIdentifying.self),
            ],
            generatedCommands: [
                Commands.AddGroupResponse.id.rawValue, Commands.ViewGroupResponse.id.rawValue,
                Commands.GetGroupMembershipResponse.id.rawValue, Commands.RemoveGroupResponse.id.rawValue,
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        guard attribute == Cluster.Attributes.nameSupport.id.rawValue else { return .failure(.unsupportedAttribute) }
        return .success(.unsigned(UInt64(Cluster.NameSupportBitmap.groupNames.rawValue)))
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        guard let fabric = node.fabrics.firstIndex(where: { $0.index == request.context.fabricIndex }) else {
            return .status(.unsupportedAccess)
        }
        let endpoint = request.endpoint
        switch command {
        case Commands.AddGroup.id.rawValue:
            guard let add = Commands.AddGroup.decode(fields) else { return .status(.invalidCommand) }
            let status = addGroup(add.groupID, name: add.groupName, fabric: fabric, endpoint: endpoint, in: &node)
            return Commands.AddGroupResponse(status: status.rawValue, groupID: add.groupID).outcome
        case Commands.AddGroupIfIdentifying.id.rawValue:
            guard let add = Commands.AddGroupIfIdentifying.decode(fields) else { return .status(.invalidCommand) }
            // §1.3.7.6: an endpoint that is not identifying does nothing, and says so with SUCCESS.
            guard let until = identifyingUntil, node.now < until else { return .success }
            let status = addGroup(add.groupID, name: add.groupName, fabric: fabric, endpoint: endpoint, in: &node)
            return status == .success ? .success : .status(status)
        case Commands.ViewGroup.id.rawValue:
            guard let view = Commands.ViewGroup.decode(fields) else { return .status(.invalidCommand) }
            let group = node.fabrics[fabric].groups.groups.first { $0.id == view.groupID }
            let status: InteractionModelStatus =
                view.groupID == 0
                ? .constraintError : group?.endpoints.contains(endpoint) == true ? .success : .notFound
            return Commands.ViewGroupResponse(
                status: status.rawValue, groupID: view.groupID, groupName: status == .success ? group?.name ?? "" : ""
            ).outcome
        case Commands.GetGroupMembership.id.rawValue:
            guard let query = Commands.GetGroupMembership.decode(fields) else { return .status(.invalidCommand) }
            let mine = node.fabrics[fabric].groups.groups.filter { $0.endpoints.contains(endpoint) }.map(\.id)
            // §1.3.7.3: an empty list asks for every group; otherwise the ones asked for that the endpoint is in.
            let answered = query.groupList.isEmpty ? mine : mine.filter(query.groupList.contains)
            let used = node.fabrics[fabric].groups.groups.count
            return Commands.GetGroupMembershipResponse(
                capacity: .value(UInt8(clamping: max(0, Int(NodeConstants.maxGroupsPerFabric) - used))),
                groupList: answered
            ).outcome
        case Commands.RemoveGroup.id.rawValue:
            guard let remove = Commands.RemoveGroup.decode(fields) else { return .status(.invalidCommand) }
            let status: InteractionModelStatus
            if remove.groupID == 0 {
                status = .constraintError
            } else if node.fabrics[fabric].groups.remove(endpoint, from: remove.groupID) {
                status = .success
                groupTableChanged(
                    in: &node, "[groups] endpoint \(endpoint) left group 0x\(hex(UInt64(remove.groupID)))")
            } else {
                status = .notFound
            }
            return Commands.RemoveGroupResponse(status: status.rawValue, groupID: remove.groupID).outcome
        case Commands.RemoveAllGroups.id.rawValue:
            let groups = node.fabrics[fabric].groups.groups.filter { $0.endpoints.contains(endpoint) }.map(\.id)
            for group in groups { node.fabrics[fabric].groups.remove(endpoint, from: group) }
            if !groups.isEmpty { groupTableChanged(in: &node, "[groups] endpoint \(endpoint) left every group") }
            return .success
        default:
            return .status(.unsupportedCommand)
        }
    }

    public mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16) {
        if case .identifying(let until) = signal { identifyingUntil = until }
    }

    /// §1.3.7.1 AddGroup's checks, in connectedhomeip's order: the group ID and name, then a key for the group,
    /// then room in the table.
    private func addGroup(
        _ groupID: UInt16, name: String, fabric: Int, endpoint: UInt16, in node: inout NodeState
    ) -> InteractionModelStatus {
        guard groupID != 0, name.utf8.count <= NodeConstants.groupNameMaximumLength else { return .constraintError }
        var groups = node.fabrics[fabric].groups
        guard groups.hasKey(for: groupID) else { return .unsupportedAccess }
        let isNew = !groups.groups.contains { $0.id == groupID }
        guard !isNew || groups.groups.count < Int(NodeConstants.maxGroupsPerFabric) else { return .resourceExhausted }
        groups.add(endpoint, to: groupID, name: name)
        node.fabrics[fabric].groups = groups
        groupTableChanged(in: &node, "[groups] endpoint \(endpoint) joined group 0x\(hex(UInt64(groupID))) \"\(name)\"")
        return .success
    }

    private func groupTableChanged(in node: inout NodeState, _ line: String) {
        node.markChanged(
            endpoint: 0, cluster: GroupKeyManagementCluster.id.rawValue,
            attributes: [GroupKeyManagementCluster.Attributes.groupTable.id.rawValue])
        node.effects += [.persist, .groupsChanged, .log(line)]
    }
}
