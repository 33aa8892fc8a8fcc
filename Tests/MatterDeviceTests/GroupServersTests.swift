import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterSecureChannel
import MatterTLV
import MatterTestSupport
import Testing

/// The Group Key Management server (key sets, GroupKeyMap, GroupTable), the Groups server and the Interaction Model
/// engine's handling of a group's invokes and writes, as connectedhomeip's servers and the specification check them.
struct GroupServersTests {
    typealias KeyManagement = GroupKeyManagementCluster
    static let admin: UInt64 = 0x0A11
    static let adminContext = NodeFixture.caseContext(fabric: 1, subject: admin)

    static func model(entries: [AccessControlEntry] = []) throws -> NodeDataModel {
        let fabric = try NodeFixture.fabric(index: 1, admin: admin, extraEntries: entries)
        return NodeDataModel(
            node: NodeFixture.node(fabrics: [fabric]), root: .rootNode(interfaces: [], rebootCount: 1, bootTime: .zero),
            applicationEndpoints: DeviceKind.dimmableLight.applicationEndpoints())
    }

    static func keySet(
        _ id: UInt16, policy: KeyManagement.GroupKeySecurityPolicyEnum = .trustFirst,
        keys: [(UInt8, UInt64)] = [(0xA0, 10), (0xB0, 20)], keyLength: Int = 16
    ) -> TLVElement {
        let key = { (position: Int) -> Nullable<[UInt8]> in
            Nullable(keys.indices.contains(position) ? [UInt8](repeating: keys[position].0, count: keyLength) : nil)
        }
        let start = { (position: Int) -> Nullable<UInt64> in
            Nullable(keys.indices.contains(position) ? keys[position].1 : nil)
        }
        // As a Matter 1.4 client sends it: without the multicast policy (member 8).
        var set = KeyManagement.GroupKeySetStruct(
            groupKeySetID: id, groupKeySecurityPolicy: policy, epochKey0: key(0), epochStartTime0: start(0),
            epochKey1: key(1), epochStartTime1: start(1), epochKey2: key(2), epochStartTime2: start(2),
            groupKeyMulticastPolicy: .perGroupID
        ).tlvValue()
        if case .structure(let members) = set { set = .structure(members.filter { $0.tag != .context(8) }) }
        return TLVElement(.structure([TLVElement(tag: .context(0), set)]))
    }

    static func invoke(
        _ model: inout NodeDataModel, endpoint: UInt16 = 0, cluster: ClusterID = KeyManagement.id, _ command: CommandID,
        _ fields: TLVElement?, as context: AccessContext = adminContext
    ) -> CommandOutcome {
        model.invoke(
            CommandPathIB(endpoint: endpoint, cluster: cluster.rawValue, command: command.rawValue), fields: fields,
            context: context)
    }

    static func writeKeyMap(_ model: inout NodeDataModel, _ entries: [(UInt16, UInt16)]) -> InteractionModelStatus {
        model.write(
            ConcreteAttributePath(
                endpoint: 0, cluster: KeyManagement.id.rawValue,
                attribute: KeyManagement.Attributes.groupKeyMap.id.rawValue),
            value: TLVElement(
                .array(
                    entries.map {
                        TLVElement(KeyManagement.GroupKeyMapStruct(groupId: $0.0, groupKeySetID: $0.1).tlvValue())
                    })),
            context: adminContext)
    }

    static func addGroup(
        _ model: inout NodeDataModel, _ group: UInt16, name: String = "Kitchen", endpoint: UInt16 = 1
    )
        -> UInt8?
    {
        let outcome = invoke(
            &model, endpoint: endpoint, cluster: GroupsCluster.id, GroupsCluster.Commands.AddGroup.id,
            TLVElement(GroupsCluster.Commands.AddGroup(groupID: group, groupName: name).tlvValue()))
        guard case .response(_, let fields) = outcome else { return nil }
        return try? GroupsCluster.Commands.AddGroupResponse(tlv: TLVElement(fields)).status
    }

    // MARK: Key sets

    @Test func keySetWriteChecksTheSetAsConnectedhomeipDoes() throws {
        var model = try Self.model()
        let write = KeyManagement.Commands.KeySetWrite.id
        #expect(Self.invoke(&model, write, Self.keySet(0x01A1)) == .success)
        // Key set 0 is the IPK: read as such, never written.
        #expect(Self.invoke(&model, write, Self.keySet(0)) == .status(.invalidCommand))
        let ipk = Self.invoke(
            &model, KeyManagement.Commands.KeySetRead.id,
            TLVElement(KeyManagement.Commands.KeySetRead(groupKeySetID: 0).tlvValue()))
        guard case .response(_, let ipkFields) = ipk else {
            Issue.record("KeySetRead(0) answered \(ipk)")
            return
        }
        let ipkSet = try KeyManagement.Commands.KeySetReadResponse(tlv: TLVElement(ipkFields)).groupKeySet
        #expect(ipkSet.groupKeySetID == 0 && ipkSet.epochKey0 == .null && ipkSet.epochStartTime0 == .value(0))
        // CacheAndSync needs MCSP, which the node does not offer.
        #expect(Self.invoke(&model, write, Self.keySet(2, policy: .cacheAndSync)) == .status(.invalidCommand))
        #expect(Self.invoke(&model, write, Self.keySet(2, keyLength: 15)) == .status(.constraintError))
        #expect(Self.invoke(&model, write, Self.keySet(2, keys: [(1, 0)])) == .status(.invalidCommand))
        #expect(Self.invoke(&model, write, Self.keySet(2, keys: [(1, 20), (2, 10)])) == .status(.invalidCommand))
        #expect(Self.invoke(&model, write, Self.keySet(2, keys: [])) == .status(.invalidCommand))
        #expect(Self.invoke(&model, write, nil) == .status(.invalidCommand))
        // Room for the IPK and three more.
        #expect(Self.invoke(&model, write, Self.keySet(2)) == .success)
        #expect(Self.invoke(&model, write, Self.keySet(3)) == .success)
        #expect(Self.invoke(&model, write, Self.keySet(4)) == .status(.resourceExhausted))
        // Writing a set that exists replaces it.
        #expect(Self.invoke(&model, write, Self.keySet(3, keys: [(9, 99)])) == .success)
        #expect(model.node.fabrics[0].groups.keySet(3)?.epochKeys.map(\.startTime) == [99])
        #expect(model.node.effects.contains(.persist) && model.node.effects.contains(.groupsChanged))
    }

    @Test func aKeySetIsReadWithoutItsKeysAndRemovedWithItsMappings() throws {
        var model = try Self.model()
        #expect(Self.invoke(&model, KeyManagement.Commands.KeySetWrite.id, Self.keySet(0x01A1)) == .success)
        #expect(Self.writeKeyMap(&model, [(0x0101, 0x01A1)]) == .success)
        let read = Self.invoke(
            &model, KeyManagement.Commands.KeySetRead.id,
            TLVElement(KeyManagement.Commands.KeySetRead(groupKeySetID: 0x01A1).tlvValue()))
        guard case .response(_, let fields) = read else {
            Issue.record("KeySetRead answered \(read)")
            return
        }
        let set = try KeyManagement.Commands.KeySetReadResponse(tlv: TLVElement(fields)).groupKeySet
        #expect(set.epochKey0 == .null && set.epochKey1 == .null && set.epochKey2 == .null)
        #expect(set.epochStartTime0 == .value(10) && set.epochStartTime1 == .value(20) && set.epochStartTime2 == .null)

        let indices = Self.invoke(&model, KeyManagement.Commands.KeySetReadAllIndices.id, TLVElement(.structure([])))
        guard case .response(_, let all) = indices else {
            Issue.record("KeySetReadAllIndices answered \(indices)")
            return
        }
        #expect(
            try KeyManagement.Commands.KeySetReadAllIndicesResponse(tlv: TLVElement(all)).groupKeySetIDs == [0, 0x01A1])

        let remove = KeyManagement.Commands.KeySetRemove.id
        let removing = { (id: UInt16) in TLVElement(KeyManagement.Commands.KeySetRemove(groupKeySetID: id).tlvValue()) }
        #expect(Self.invoke(&model, remove, removing(0)) == .status(.invalidCommand))
        #expect(Self.invoke(&model, remove, removing(7)) == .status(.notFound))
        #expect(Self.invoke(&model, remove, removing(0x01A1)) == .success)
        #expect(model.node.fabrics[0].groups == FabricGroups())
        #expect(
            Self.invoke(
                &model, KeyManagement.Commands.KeySetRead.id,
                TLVElement(KeyManagement.Commands.KeySetRead(groupKeySetID: 0x01A1).tlvValue())) == .status(.notFound))
    }

    @Test func theGroupKeyMapTakesAValidListWholeOrNotAtAll() throws {
        var model = try Self.model()
        #expect(Self.writeKeyMap(&model, [(0x0101, 0x01A1), (0x0102, 0x01A1)]) == .success)
        #expect(Self.writeKeyMap(&model, [(0x0103, 0)]) == .constraintError)
        #expect(Self.writeKeyMap(&model, [(0, 0x01A1)]) == .constraintError)
        #expect(Self.writeKeyMap(&model, [(0x0103, 1), (0x0103, 2)]) == .constraintError)
        #expect(
            Self.writeKeyMap(&model, (1...17).map { (UInt16($0), 1) }) == .resourceExhausted)
        // None of the refused lists replaced the first.
        #expect(model.node.fabrics[0].groups.keyMap.map(\.groupID) == [0x0101, 0x0102])
    }

    // MARK: Groups

    @Test func anEndpointJoinsAGroupOnlyOnceAKeyIsMappedToIt() throws {
        var model = try Self.model()
        let success = InteractionModelStatus.success.rawValue
        #expect(Self.addGroup(&model, 0x0101) == InteractionModelStatus.unsupportedAccess.rawValue)
        #expect(Self.invoke(&model, KeyManagement.Commands.KeySetWrite.id, Self.keySet(0x01A1)) == .success)
        #expect(Self.writeKeyMap(&model, [(0x0101, 0x01A1)]) == .success)
        #expect(Self.addGroup(&model, 0) == InteractionModelStatus.constraintError.rawValue)
        #expect(
            Self.addGroup(&model, 0x0101, name: String(repeating: "x", count: 17))
                == InteractionModelStatus.constraintError.rawValue)
        #expect(Self.addGroup(&model, 0x0101) == success)
        #expect(
            model.node.fabrics[0].groups.groups == [FabricGroups.Group(id: 0x0101, name: "Kitchen", endpoints: [1])])

        // The GroupTable lists it, with the accessing fabric's index.
        let table = model.read(
            ConcreteAttributePath(
                endpoint: 0, cluster: KeyManagement.id.rawValue,
                attribute: KeyManagement.Attributes.groupTable.id.rawValue),
            isFabricFiltered: true, context: Self.adminContext)
        guard case .success(.array(let entries)) = table else {
            Issue.record("GroupTable read \(table)")
            return
        }
        let entry = try KeyManagement.GroupInfoMapStruct(tlv: entries[0])
        #expect(
            entry.groupId == 0x0101 && entry.endpoints == [1] && entry.groupName == "Kitchen" && entry.fabricIndex == 1)

        let view = { (model: inout NodeDataModel, group: UInt16) -> GroupsCluster.Commands.ViewGroupResponse? in
            guard
                case .response(_, let fields) = Self.invoke(
                    &model, endpoint: 1, cluster: GroupsCluster.id, GroupsCluster.Commands.ViewGroup.id,
                    TLVElement(GroupsCluster.Commands.ViewGroup(groupID: group).tlvValue()))
            else { return nil }
            return try? GroupsCluster.Commands.ViewGroupResponse(tlv: TLVElement(fields))
        }
        #expect(view(&model, 0x0101)?.groupName == "Kitchen")
        #expect(view(&model, 0x0102)?.status == InteractionModelStatus.notFound.rawValue)

        // The last endpoint leaving ends the group.
        let remove = Self.invoke(
            &model, endpoint: 1, cluster: GroupsCluster.id, GroupsCluster.Commands.RemoveGroup.id,
            TLVElement(GroupsCluster.Commands.RemoveGroup(groupID: 0x0101).tlvValue()))
        guard case .response(_, let removed) = remove else {
            Issue.record("RemoveGroup answered \(remove)")
            return
        }
        #expect(try GroupsCluster.Commands.RemoveGroupResponse(tlv: TLVElement(removed)).status == success)
        #expect(model.node.fabrics[0].groups.groups.isEmpty)
    }

    @Test func addGroupIfIdentifyingActsOnlyWhileTheEndpointIdentifies() throws {
        var model = try Self.model()
        #expect(Self.invoke(&model, KeyManagement.Commands.KeySetWrite.id, Self.keySet(0x01A1)) == .success)
        #expect(Self.writeKeyMap(&model, [(0x0101, 0x01A1)]) == .success)
        let addIfIdentifying = { (model: inout NodeDataModel) in
            Self.invoke(
                &model, endpoint: 1, cluster: GroupsCluster.id, GroupsCluster.Commands.AddGroupIfIdentifying.id,
                TLVElement(GroupsCluster.Commands.AddGroupIfIdentifying(groupID: 0x0101, groupName: "Hall").tlvValue()))
        }
        #expect(addIfIdentifying(&model) == .success)
        #expect(model.node.fabrics[0].groups.groups.isEmpty)
        #expect(
            Self.invoke(
                &model, endpoint: 1, cluster: IdentifyCluster.id, IdentifyCluster.Commands.Identify.id,
                TLVElement(IdentifyCluster.Commands.Identify(identifyTime: 30).tlvValue())) == .success)
        #expect(addIfIdentifying(&model) == .success)
        #expect(model.node.fabrics[0].groups.endpoints(in: 0x0101) == [1])
    }

    // MARK: The engine

    /// A group's invoke runs on every endpoint of the group that has the cluster, with the group's own access; a
    /// group write likewise; other requests and endpoints are skipped, and nothing is answered.
    @Test func aGroupRequestActsOnTheGroupsEndpointsWithTheGroupsAccess() throws {
        let granted = AccessControlEntry(privilege: .operate, authMode: .group, subjects: [0x0101])
        var server = InteractionServer(provider: try Self.model(entries: [granted]))
        let group = AccessContext(fabricIndex: 1, subject: 0x0101, authMode: .group)
        let on = GroupInvokeRequest(
            commands: [.init(cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.On.id.rawValue)])
        // Endpoint 0 has no On/Off cluster: skipped in silence.
        let outcome = server.handleGroupRequest(
            opcode: InteractionModelOpcode.invokeRequest.rawValue, payload: on.encoded(), endpoints: [0, 1],
            context: group, now: .zero)
        #expect(outcome.acted == ["cluster 0x0006 command 0x0001 on endpoint 1"])
        #expect(outcome.skipped.isEmpty)
        #expect(
            server.provider.node.changedPaths.contains { $0.endpoint == 1 && $0.cluster == OnOffCluster.id.rawValue })

        // Another group, not granted: the command is skipped, saying why.
        let stranger = AccessContext(fabricIndex: 1, subject: 0x0102, authMode: .group)
        let refused = server.handleGroupRequest(
            opcode: InteractionModelOpcode.invokeRequest.rawValue, payload: on.encoded(), endpoints: [1],
            context: stranger, now: .zero)
        #expect(refused.acted.isEmpty && refused.skipped.map(\.status) == [.unsupportedAccess])

        // A write to the group sets the attribute on its endpoints.
        let identifyTime = AttributePathIB(
            cluster: IdentifyCluster.id.rawValue, attribute: IdentifyCluster.Attributes.identifyTime.id.rawValue)
        let write = WriteRequestMessage(writeRequests: [
            AttributeDataIB(path: identifyTime, data: TLVElement(.unsigned(30)))
        ])
        let written = server.handleGroupRequest(
            opcode: InteractionModelOpcode.writeRequest.rawValue, payload: write.encoded(), endpoints: [1],
            context: group, now: .zero)
        #expect(written.acted == ["endpoint 1, cluster 0x0003, attribute 0x0000"], "\(written)")

        // A read is not a group's to send.
        let read = ReadRequestMessage(attributeRequests: [identifyTime], isFabricFiltered: true)
        let reading = server.handleGroupRequest(
            opcode: InteractionModelOpcode.readRequest.rawValue, payload: read.encoded(), endpoints: [1],
            context: group, now: .zero)
        #expect(reading.acted.isEmpty && reading.skipped.map(\.status) == [.invalidAction])
    }

    /// A group invoke is an InvokeRequest without endpoints (§10.6.11); one that names an endpoint is not a group's.
    @Test func aGroupInvokeLeavesTheEndpointOut() throws {
        let request = GroupInvokeRequest(
            commands: [
                .init(cluster: 6, command: 2), .init(cluster: 8, command: 0, fields: TLVElement(.structure([]))),
            ])
        let decoded = try GroupInvokeRequest(payload: request.encoded())
        #expect(decoded == request)
        let unicast = InvokeRequestMessage(invokeRequests: [
            CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 6, command: 2))
        ])
        #expect(throws: InteractionError.self) { try GroupInvokeRequest(payload: unicast.encoded()) }
        // The request says no response is wanted.
        #expect(try TLVReader.decode(request.encoded()).structure().required(0, as: Bool.self))
    }
}
