import Foundation
import HomeHub
import MatterCrypto
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterSecureChannel
import MatterTLV
import MatterTestSupport
import MatterTime
import Testing

/// Matter Core §4.16 group messages, end to end on a simulated network with multicast: an administrator gives a
/// virtual light a key set, maps a group to it, puts endpoint 1 in the group and grants the group Operate; then one
/// multicast message from another node of the fabric, sealed with the group's key, switches the light.
@Suite(.timeLimit(.minutes(2))) struct GroupMessagingTests {
    /// connectedhomeip's test key set 0x01A3 (GroupTesting::InitData), trust-first, three epoch keys.
    static let keySetID: UInt16 = 0x01A3
    static let epochKeys = [
        ([UInt8](hex: "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"), UInt64(2_220_000)),
        ([UInt8](hex: "d1d1d2d3d4d5d6d7d8d9dadbdcdddedf"), UInt64(2_220_001)),
        ([UInt8](hex: "d2d1d2d3d4d5d6d7d8d9dadbdcdddedf"), UInt64(2_220_002)),
    ]
    static let operated: UInt16 = 0x0103
    static let notGranted: UInt16 = 0x0104

    @Test func aGroupToggleSwitchesTheLightOnceAndOnlyWhereTheGroupIsGranted() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 23)
            let fixture = try await LoopbackFixture.start(in: directory, network: network)
            await fixture.device.useGroupInterfaces(["sim0"])
            let hub = try await Hub(statePath: fixture.hubPath)
            let (nodeID, client, transport) = try await fixture.commissionAndConnect(hub)

            // The administrator's setup, as connectedhomeip's group tests do it.
            try await Self.setUpGroups(client, network, hubNodeID: hub.authority.hubNodeID)
            #expect(fixture.lines.all.contains { $0.contains("joined group 0x103") })

            // Every datagram arrives twice: the toggle must act once.
            network.setConditions(.init(duplication: 1))
            let sender = try await Self.senderNode(hub, network)
            let toggle = GroupInvokeRequest(
                commands: [.init(cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.Toggle.id.rawValue)])
            try await sender.send(toggle, toGroup: Self.operated, fabricIndex: 1, utcMicroseconds: nil)
            #expect(await Self.until(network) { fixture.lines.all.contains("[light] ON") }, "\(fixture.lines.all)")
            // Let the second copy land, then look again: still on, toggled exactly once.
            _ = await drive(network.clock, step: .milliseconds(5)) {
                try? await network.clock.sleep(for: .milliseconds(50))
            }
            network.setConditions(.init())
            #expect(await Self.onOff(client, network) == true)
            #expect(fixture.lines.all.filter { $0.hasPrefix("[light] O") } == ["[light] ON"])
            #expect(network.statistics.duplicated > 0)

            // A group whose key opens the message but which the ACL does not grant: nothing changes.
            try await sender.send(toggle, toGroup: Self.notGranted, fabricIndex: 1, utcMicroseconds: nil)
            #expect(
                await Self.until(network) {
                    fixture.lines.all.contains {
                        $0.contains("group 0x104") && $0.contains("skipped: UNSUPPORTED_ACCESS")
                    }
                }, "\(fixture.lines.all)")
            #expect(await Self.onOff(client, network) == true)

            // A private group message (P flag, its counter, sender and group hidden with the privacy key, §4.9.3), as
            // connectedhomeip sends them since 2026: revealed with the key's privacy key, then acted on.
            try await Self.sendPrivateToggle(hub, network)
            #expect(await Self.until(network) { fixture.lines.all.contains("[light] OFF") }, "\(fixture.lines.all)")

            // The groups survive a restart of the device.
            await transport.shutdown()
            await fixture.device.shutdown()
            let restarted = try await LoopbackFixture.start(in: directory, network: network)
            let again = try fixture.controllerTransport()
            let second = await drive(network.clock, step: .milliseconds(5)) {
                try? await restarted.caseClient(hub, nodeID: nodeID, transport: again)
            }
            let secondClient = try #require(second?.value ?? nil)
            let table = await drive(network.clock, step: .milliseconds(5)) {
                try? await secondClient.read([
                    AttributePathIB(
                        endpoint: 0, cluster: GroupKeyManagementCluster.id.rawValue,
                        attribute: GroupKeyManagementCluster.Attributes.groupTable.id.rawValue)
                ])
            }
            let groups = try Self.groupTable(try #require(table?.value ?? nil))
            #expect(groups.map(\.groupId) == [Self.operated, Self.notGranted])
            #expect(groups.first?.endpoints == [1])
            await again.shutdown()
            await sender.shutdown()
            await restarted.device.shutdown()
        }
    }

    // MARK: Steps

    private static func setUpGroups(
        _ client: InteractionClient, _ network: ClockedNetwork, hubNodeID: UInt64
    ) async throws {
        let keySet = GroupKeyManagementCluster.GroupKeySetStruct(
            groupKeySetID: keySetID, groupKeySecurityPolicy: .trustFirst,
            epochKey0: .value(epochKeys[0].0), epochStartTime0: .value(epochKeys[0].1),
            epochKey1: .value(epochKeys[1].0), epochStartTime1: .value(epochKeys[1].1),
            epochKey2: .value(epochKeys[2].0), epochStartTime2: .value(epochKeys[2].1),
            groupKeyMulticastPolicy: .perGroupID)
        let keyMap = GroupKeyManagementCluster.Attributes.groupKeyMap
        let acl = AccessControlCluster.Attributes.acl
        let steps: [@Sendable () async throws -> Void] = [
            {
                _ = try await client.invoke(
                    GroupKeyManagementCluster.Commands.KeySetWrite(groupKeySet: keySet), endpoint: 0)
            },
            {
                _ = try await client.write([
                    AttributeDataIB(
                        path: AttributePathIB(
                            endpoint: 0, cluster: keyMap.cluster.rawValue, attribute: keyMap.id.rawValue),
                        data: TLVElement(
                            .array(
                                [operated, notGranted].map {
                                    TLVElement(
                                        GroupKeyManagementCluster.GroupKeyMapStruct(
                                            groupId: $0, groupKeySetID: keySetID, fabricIndex: 1
                                        ).tlvValue())
                                })))
                ])
            },
            {
                for group in [operated, notGranted] {
                    let response = try await client.invoke(
                        GroupsCluster.Commands.AddGroup(groupID: group, groupName: "Group \(group)"), endpoint: 1)
                    #expect(response.status == InteractionModelStatus.success.rawValue)
                }
            },
            {
                _ = try await client.write([
                    AttributeDataIB(
                        path: AttributePathIB(endpoint: 0, cluster: acl.cluster.rawValue, attribute: acl.id.rawValue),
                        data: TLVElement(
                            .array([
                                TLVElement(
                                    AccessControlCluster.AccessControlEntryStruct(
                                        privilege: .administer, authMode: .case, subjects: .value([hubNodeID]),
                                        targets: .null, fabricIndex: 1
                                    ).tlvValue()),
                                TLVElement(
                                    AccessControlCluster.AccessControlEntryStruct(
                                        privilege: .operate, authMode: .group, subjects: .value([UInt64(operated)]),
                                        targets: .null, fabricIndex: 1
                                    ).tlvValue()),
                            ])))
                ])
            },
        ]
        for step in steps {
            let done = await drive(network.clock, step: .milliseconds(5)) { () -> Result<Void, any Error> in
                do { return .success(try await step()) } catch { return .failure(error) }
            }
            try #require(done != nil)
            try done!.value.get()
        }
    }

    /// A Toggle to the operated group, sealed with the key set's second epoch key and concealed by hand.
    private static func sendPrivateToggle(_ hub: Hub, _ network: ClockedNetwork) async throws {
        let key = try GroupKeys.operationalKey(
            epochKey: epochKeys[1].0, compressedFabricID: hub.authority.compressedFabricID)
        let toggle = GroupInvokeRequest(
            commands: [.init(cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.Toggle.id.rawValue)])
        let message = Message(
            header: MessageHeader(
                sessionID: try GroupKeys.sessionID(operationalKey: key), sessionType: .group, isPrivate: true,
                messageCounter: 77, sourceNodeID: 0xDEAD_BEEF, destination: .group(operated)),
            protocolHeader: ProtocolHeader(
                isInitiator: true, needsAcknowledgement: false, opcode: InteractionModelOpcode.invokeRequest.rawValue,
                exchangeID: 9, protocolID: .interactionModel),
            payload: toggle.encoded())
        let sealed = try MessagePrivacy.conceal(
            message.encrypted(key: key, nonceSourceNodeID: 0xDEAD_BEEF),
            privacyKey: try GroupKeys.privacyKey(operationalKey: key))
        let transport = network.transport()
        _ = await transport.useGroupInterfaces(["sim0"])
        try await transport.send(
            groupMessage: sealed, to: GroupPeer(fabricID: hub.authority.fabricID, groupID: operated))
        await transport.shutdown()
    }

    /// Another node of the hub's fabric that holds the same key set and map: it sends the group messages.
    private static func senderNode(_ hub: Hub, _ network: ClockedNetwork) async throws -> LocalNode {
        let credentials = hub.authority.operationalCredentials
        let set = try GroupKeySet(
            id: keySetID, policy: .trustFirst,
            epochKeys: epochKeys.map { GroupKeySet.EpochKey(key: $0.0, startTime: $0.1) })
        let fabric = try Fabric(
            index: 1, rootCertificate: hub.authority.rootCertificateTLV, noc: credentials.noc, icac: credentials.icac,
            ipkEpochKey: [UInt8](repeating: 0, count: 16), operationalKey: credentials.operationalKey.rawRepresentation,
            vendorID: 0xFFF1, label: "", accessControl: [],
            groups: FabricGroups(
                keySets: [set],
                keyMap: [operated, notGranted].map { FabricGroups.KeyMapping(groupID: $0, keySetID: keySetID) }))
        let state = NodeState(
            identity: NodeIdentity(
                vendorID: 0xFFF1, productID: 0x8001, vendorName: "test", productName: "sender", serialNumber: "1",
                uniqueID: "1"),
            commissionable: nil, fabrics: [fabric], random: SystemRandom())
        let node = LocalNode(
            model: NodeDataModel(
                node: state, root: Endpoint(id: 0, deviceTypes: [MatterDeviceTypes.rootNode], clusters: [])),
            transport: network.transport(), port: 0, clock: network.clock)
        await node.start { _ in }
        await node.useGroupInterfaces(["sim0"])
        return node
    }

    /// Whether `condition` comes to hold within 10 s of real time: the network delivers at once, so what is awaited is
    /// the nodes' own work, which a loaded machine slows in real time, not in the network's.
    private static func until(_ network: ClockedNetwork, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        await eventually(within: .seconds(10)) { condition() }
    }

    private static func onOff(_ client: InteractionClient, _ network: ClockedNetwork) async -> Bool? {
        let read = await drive(network.clock, step: .milliseconds(5)) {
            try? await client.read([AttributePathIB(endpoint: 1, cluster: OnOffCluster.id.rawValue, attribute: 0)])
        }
        guard let report = read?.value ?? nil else { return nil }
        for case .data(let data) in report.attributeReports {
            if case .bool(let on) = data.data.value { return on }
        }
        return nil
    }

    private static func groupTable(_ report: InteractionReport) throws -> [GroupKeyManagementCluster.GroupInfoMapStruct]
    {
        for case .data(let data) in report.attributeReports {
            guard case .array(let items) = data.data.value else { continue }
            return try items.map { try GroupKeyManagementCluster.GroupInfoMapStruct(tlv: $0) }
        }
        return []
    }
}
