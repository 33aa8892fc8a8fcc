import MatterDataModel
import MatterInteraction
import MatterSecureChannel
import MatterTLV

// Matter Core §11.2 Group Key Management cluster, server: each fabric's key sets (written, read without their keys,
// removed), its GroupKeyMap (which key set each group uses) and its GroupTable (which endpoints are in which group,
// as the Groups clusters set it). Trust-first key sets only: the CacheAndSync feature (MCSP) is not offered.
public struct GroupKeyManagementServer: ClusterServer {
    private typealias Cluster = GroupKeyManagementCluster
    private typealias Attributes = GroupKeyManagementCluster.Attributes
    private typealias Commands = GroupKeyManagementCluster.Commands

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Attributes.groupKeyMap), AttributeDescription(Attributes.groupTable),
                AttributeDescription(Attributes.maxGroupsPerFabric),
                AttributeDescription(Attributes.maxGroupKeysPerFabric),
            ],
            acceptedCommands: [
                CommandDescription(Commands.KeySetWrite.self), CommandDescription(Commands.KeySetRead.self),
                CommandDescription(Commands.KeySetRemove.self), CommandDescription(Commands.KeySetReadAllIndices.self),
            ],
            generatedCommands: [
                Commands.KeySetReadResponse.id.rawValue, Commands.KeySetReadAllIndicesResponse.id.rawValue,
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        let fabrics = node.fabrics.filter { !request.isFabricFiltered || $0.index == request.context.fabricIndex }
        switch attribute {
        case Attributes.groupKeyMap.id.rawValue:
            return .success(
                .array(
                    fabrics.flatMap { fabric in
                        fabric.groups.keyMap.map {
                            TLVElement(
                                Cluster.GroupKeyMapStruct(
                                    groupId: $0.groupID, groupKeySetID: $0.keySetID, fabricIndex: fabric.index
                                ).tlvValue())
                        }
                    }))
        case Attributes.groupTable.id.rawValue:
            return .success(
                .array(
                    fabrics.flatMap { fabric in
                        fabric.groups.groups.map {
                            TLVElement(
                                Cluster.GroupInfoMapStruct(
                                    groupId: $0.id, endpoints: $0.endpoints, groupName: $0.name,
                                    fabricIndex: fabric.index
                                ).tlvValue())
                        }
                    }))
        case Attributes.maxGroupsPerFabric.id.rawValue:
            return .success(.unsigned(UInt64(NodeConstants.maxGroupsPerFabric)))
        case Attributes.maxGroupKeysPerFabric.id.rawValue:
            return .success(.unsigned(UInt64(NodeConstants.maxGroupKeysPerFabric)))
        default:
            return .failure(.unsupportedAttribute)
        }
    }

    /// §11.2.6.1 GroupKeyMap: the written list replaces the accessing fabric's entries, all valid or none: no key
    /// set 0 (the IPK carries no group messages), no group 0, no group twice, and no more than the fabric may have.
    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard attribute == Attributes.groupKeyMap.id.rawValue else { return .unsupportedWrite }
        guard let position = node.fabrics.firstIndex(where: { $0.index == request.context.fabricIndex }) else {
            return .unsupportedAccess
        }
        guard case .array(let items) = value.value else { return .invalidDataType }
        guard items.count <= Int(NodeConstants.maxGroupsPerFabric) else { return .resourceExhausted }
        var mappings: [FabricGroups.KeyMapping] = []
        for item in items {
            guard let entry = try? Cluster.GroupKeyMapStruct(tlv: item) else { return .invalidDataType }
            guard entry.groupId != 0, entry.groupKeySetID != GroupKeySet.identityProtectionKeySetID,
                entry.fabricIndex == nil || entry.fabricIndex == request.context.fabricIndex,
                !mappings.contains(where: { $0.groupID == entry.groupId })
            else { return .constraintError }
            mappings.append(FabricGroups.KeyMapping(groupID: entry.groupId, keySetID: entry.groupKeySetID))
        }
        node.fabrics[position].groups.keyMap = mappings
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [attribute])
        node.effects += [
            .persist, .groupsChanged,
            .log("[groups] fabric \(request.context.fabricIndex) maps \(mappings.count) groups to key sets"),
        ]
        return .success
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        guard let position = node.fabrics.firstIndex(where: { $0.index == request.context.fabricIndex }) else {
            return .status(.unsupportedAccess)
        }
        switch command {
        case Commands.KeySetWrite.id.rawValue:
            return keySetWrite(fields, fabric: position, in: &node)
        case Commands.KeySetRead.id.rawValue:
            guard let read = Commands.KeySetRead.decode(fields) else { return .status(.invalidCommand) }
            return keySetRead(read.groupKeySetID, in: node.fabrics[position])
        case Commands.KeySetRemove.id.rawValue:
            guard let remove = Commands.KeySetRemove.decode(fields) else { return .status(.invalidCommand) }
            return keySetRemove(remove.groupKeySetID, fabric: position, in: &node)
        case Commands.KeySetReadAllIndices.id.rawValue:
            let ids = [GroupKeySet.identityProtectionKeySetID] + node.fabrics[position].groups.keySets.map(\.id)
            return Commands.KeySetReadAllIndicesResponse(groupKeySetIDs: ids).outcome
        default:
            return .status(.unsupportedCommand)
        }
    }

    /// §11.2.7.1: a new key set, or one replacing the set of the same ID.
    private func keySetWrite(_ fields: TLVElement?, fabric position: Int, in node: inout NodeState) -> CommandOutcome {
        let written: GroupKeySet
        switch Self.decodeKeySet(fields) {
        case .success(let set): written = set
        case .failure(let status): return .status(status)
        }
        // Key set 0 is the IPK, which AddNOC gave and CASE uses: it is no key set a client writes.
        guard written.id != GroupKeySet.identityProtectionKeySetID else { return .status(.invalidCommand) }
        var groups = node.fabrics[position].groups
        groups.keySets.removeAll { $0.id == written.id }
        // The IPK is one of the fabric's key sets too (§11.2.6.4 MaxGroupKeysPerFabric counts it).
        guard groups.keySets.count + 1 < Int(NodeConstants.maxGroupKeysPerFabric) else {
            return .status(.resourceExhausted)
        }
        groups.keySets.append(written)
        groups.keySets.sort { $0.id < $1.id }
        node.fabrics[position].groups = groups
        node.effects += [
            .persist, .groupsChanged,
            .log("[groups] fabric \(node.fabrics[position].index) wrote key set 0x\(hex(UInt64(written.id)))"),
        ]
        return .success
    }

    /// The command's key set, checked as connectedhomeip and §11.2.7.1 check it. Decoded by hand: the data model
    /// this is generated from has a member (8, the multicast policy) that clients of Matter 1.4 and before never send.
    static func decodeKeySet(_ fields: TLVElement?) -> Result<GroupKeySet, InteractionModelStatus> {
        guard let fields, let command = try? fields.structure(),
            let structure = try? command.members.first(where: { $0.tag == .context(0) })?.structure(),
            let id = try? structure.required(0, as: UInt16.self),
            let policyValue = try? structure.required(1, as: UInt8.self),
            let key0 = try? structure.required(2, as: Nullable<[UInt8]>.self),
            let start0 = try? structure.required(3, as: Nullable<UInt64>.self),
            let key1 = try? structure.required(4, as: Nullable<[UInt8]>.self),
            let start1 = try? structure.required(5, as: Nullable<UInt64>.self),
            let key2 = try? structure.required(6, as: Nullable<[UInt8]>.self),
            let start2 = try? structure.required(7, as: Nullable<UInt64>.self)
        else { return .failure(.invalidCommand) }
        guard let policy = GroupKeySet.SecurityPolicy(rawValue: policyValue) else { return .failure(.constraintError) }
        // CacheAndSync needs MCSP, which this node does not offer.
        guard policy == .trustFirst else { return .failure(.invalidCommand) }
        let pairs = [(key0, start0), (key1, start1), (key2, start2)]
        var epochKeys: [GroupKeySet.EpochKey] = []
        for (key, start) in pairs {
            switch (key, start) {
            case (.value(let key), .value(let start)):
                epochKeys.append(GroupKeySet.EpochKey(key: key, startTime: start))
            case (.null, .null):
                continue
            default:
                return .failure(.invalidCommand)
            }
        }
        // Key 0 always, key 2 only with key 1.
        guard key0.optional != nil, key2.optional == nil || key1.optional != nil else {
            return .failure(.invalidCommand)
        }
        do throws(GroupKeySetError) {
            return .success(try GroupKeySet(id: id, policy: policy, epochKeys: epochKeys))
        } catch .epochKeyLength {
            return .failure(.constraintError)
        } catch {
            return .failure(.invalidCommand)
        }
    }

    /// §11.2.7.2: the key set's ID, policy and start times, never its keys; key set 0 is the IPK, one epoch key that
    /// starts at 0, as connectedhomeip answers.
    private func keySetRead(_ id: UInt16, in fabric: Fabric) -> CommandOutcome {
        let ipk = try? GroupKeySet(
            id: GroupKeySet.identityProtectionKeySetID, policy: .trustFirst,
            epochKeys: [GroupKeySet.EpochKey(key: fabric.ipkEpochKey, startTime: 1)])
        guard let set = id == GroupKeySet.identityProtectionKeySetID ? ipk : fabric.groups.keySet(id) else {
            return .status(.notFound)
        }
        let start = { (position: Int) -> Nullable<UInt64> in
            guard set.id != GroupKeySet.identityProtectionKeySetID else { return position == 0 ? .value(0) : .null }
            return Nullable(set.epochKeys.indices.contains(position) ? set.epochKeys[position].startTime : nil)
        }
        return Commands.KeySetReadResponse(
            groupKeySet: Cluster.GroupKeySetStruct(
                groupKeySetID: set.id, groupKeySecurityPolicy: .init(rawValue: set.policy.rawValue),
                epochKey0: .null, epochStartTime0: start(0), epochKey1: .null, epochStartTime1: start(1),
                epochKey2: .null, epochStartTime2: start(2), groupKeyMulticastPolicy: .perGroupID)
        ).outcome
    }

    /// §11.2.7.4: the key set goes, with the GroupKeyMap entries that use it; the IPK cannot be removed.
    private func keySetRemove(_ id: UInt16, fabric position: Int, in node: inout NodeState) -> CommandOutcome {
        guard id != GroupKeySet.identityProtectionKeySetID else { return .status(.invalidCommand) }
        guard node.fabrics[position].groups.keySet(id) != nil else { return .status(.notFound) }
        node.fabrics[position].groups.keySets.removeAll { $0.id == id }
        let before = node.fabrics[position].groups.keyMap.count
        node.fabrics[position].groups.keyMap.removeAll { $0.keySetID == id }
        if node.fabrics[position].groups.keyMap.count != before {
            node.markChanged(endpoint: 0, cluster: self.id, attributes: [Attributes.groupKeyMap.id.rawValue])
        }
        node.effects += [
            .persist, .groupsChanged,
            .log("[groups] fabric \(node.fabrics[position].index) removed key set 0x\(hex(UInt64(id)))"),
        ]
        return .success
    }
}
