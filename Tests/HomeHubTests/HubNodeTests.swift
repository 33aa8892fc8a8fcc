import HomeRecords
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterSecureChannel
import MatterTLV
import Testing

@testable import HomeHub

/// The hub is a node on its own fabric: a device of the fabric opens CASE to it and reads what it serves.
@Suite(.timeLimit(.minutes(1))) struct HubNodeTests {
    /// The hub's group message counter: a block reserved is stored before a counter of it is sent, and a restarted hub
    /// resumes past it, so no counter goes out twice under the home's key.
    @Test func theHubStoresItsGroupCounterBeforeSendingAndResumesPastIt() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let node = try await hub.link().node
            let set = try GroupKeySet(
                id: 1, policy: .trustFirst,
                epochKeys: [GroupKeySet.EpochKey(key: [UInt8](repeating: 4, count: 16), startTime: 9)])
            try await node.update { model in
                model.node.fabrics[0].groups = FabricGroups(
                    keySets: [set], keyMap: [FabricGroups.KeyMapping(groupID: 5, keySetID: 1)])
            }
            let first = await node.model.node.groupMessageCounter.next
            // No interface is chosen, so nothing goes out; the counter was taken and its block stored all the same.
            await #expect(throws: NodeError.self) {
                try await node.send(GroupInvokeRequest(commands: []), toGroup: 5, fabricIndex: 1, utcMicroseconds: nil)
            }
            let stored = try #require(try await hub.store.groupMessageCounter())
            #expect(stored == first &+ GroupMessageCounter.reservation)
            await hub.close()
            let restarted = try await Hub(statePath: base)
            #expect(try await restarted.link().node.model.node.groupMessageCounter.next == stored)
            await restarted.close()
        }
    }

    @Test func aDeviceOfTheFabricOpensCASEToTheHubAndReadsItsBasicInformation() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let link = try await hub.link()
            let device = try await enrolledDevice(on: hub.authority, seed: 7)
            let (session, client, transport) = try await Self.openCASE(to: link, as: device, hub: hub)
            #expect(session.established.peerNodeID == hub.authority.hubNodeID)

            let attributes = BasicInformationCluster.Attributes.self
            let report = try await client.read([
                attributes.vendorID.path(endpoint: 0), attributes.productName.path(endpoint: 0),
                attributes.serialNumber.path(endpoint: 0),
            ])
            var cache = AttributeCache()
            cache.apply(report.attributeReports)
            #expect(try cache.value(attributes.vendorID, endpoint: 0) == 0xFFF1)
            #expect(try cache.value(attributes.productName, endpoint: 0) == "swift-home hub")
            let serial = try #require(try cache.value(attributes.serialNumber, endpoint: 0))
            #expect(UInt64(serial, radix: 16) == hub.authority.hubNodeID)

            // Its ACL grants View and nothing more: the device may not change the hub.
            await #expect {
                _ = try await client.write([
                    AttributeDataIB(path: attributes.nodeLabel.path(endpoint: 0), data: TLVElement(.utf8("mine")))
                ])
            } throws: { error in
                (error as? InteractionClientError)?.status == .unsupportedAccess
            }
            // …and it serves what endpoint 0 of a root node needs, and its devices' OTA provider.
            let descriptor = try await client.read([DescriptorCluster.Attributes.serverList.path(endpoint: 0)])
            cache.apply(descriptor.attributeReports)
            let clusters = try #require(try cache.value(DescriptorCluster.Attributes.serverList, endpoint: 0))
            #expect(
                clusters.map(\.rawValue) == [
                    DescriptorCluster.id.rawValue, AccessControlCluster.id.rawValue,
                    BasicInformationCluster.id.rawValue, OtaSoftwareUpdateProviderCluster.id.rawValue,
                ])
            await transport.shutdown()
            await hub.close()
        }
    }

    @Test func aNodeOfAnotherFabricCannotOpenCASEToTheHub() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let link = try await hub.link()
            let otherFabric = try await openFabric(in: base + "/other", seed: 9)
            let stranger = try await enrolledDevice(on: otherFabric, seed: 8)
            await #expect(throws: SessionEstablishmentError.self) {
                _ = try await Self.openCASE(to: link, as: stranger, hub: hub)
            }
            await hub.close()
        }
    }

    /// CASE from a transport of the device's own to the hub's node over loopback.
    static func openCASE(
        to link: HubLink, as device: OperationalCredentials, hub: Hub
    ) async throws -> (SessionEstablishment.Result, InteractionClient, MatterTransport) {
        let transport = try MatterTransport()
        let hubAddress = SocketAddress.ipv4(IPv4Address(0x7F00_0001), port: try link.transport.localPorts().ipv4)
        let session = try await SessionEstablishment.case(
            with: hubAddress, nodeID: hub.authority.hubNodeID, credentials: device,
            validator: FabricPeerValidator(root: hub.authority.rootCertificate), over: transport)
        let client = InteractionClient(
            transport: transport, session: session.session, peerParameters: session.established.mrpParameters)
        return (session, client, transport)
    }
}

/// A protocol of the hub's node besides its own: it answers each message with the sender's node ID.
private struct EchoNodeID: ProtocolHandler {
    func accept(
        _ exchange: ExchangeHandle, _ first: ExchangeMessage, from peer: SessionPeer, over transport: MatterTransport
    ) async {
        let reply = ExchangeMessage(
            protocolID: first.protocolID, opcode: first.opcode &+ 1,
            payload: (0..<8).map { UInt8(truncatingIfNeeded: peer.nodeID >> (8 * $0)) })
        try? await transport.send(reply, on: exchange)
        await transport.close(exchange)
    }
}

extension HubNodeTests {
    /// A registered protocol gets the exchanges a device of the fabric opens for it, knowing which node asks; Bulk Data
    /// Exchange is the hub's OTA provider's.
    @Test func aRegisteredProtocolTakesTheExchangesADeviceOpensForIt() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let link = try await hub.link()
            await #expect(throws: NodeError.protocolTaken(.bulkDataExchange)) {
                try await link.node.register(EchoNodeID(), for: .bulkDataExchange)
            }
            try await link.node.register(EchoNodeID(), for: .userDirectedCommissioning)
            await #expect(throws: NodeError.protocolTaken(.userDirectedCommissioning)) {
                try await link.node.register(EchoNodeID(), for: .userDirectedCommissioning)
            }
            await #expect(throws: NodeError.protocolTaken(.interactionModel)) {
                try await link.node.register(EchoNodeID(), for: .interactionModel)
            }
            let device = try await enrolledDevice(on: hub.authority, seed: 7)
            let (session, _, transport) = try await Self.openCASE(to: link, as: device, hub: hub)
            let exchange = try await transport.openExchange(on: session.session)
            try await transport.send(
                ExchangeMessage(protocolID: .userDirectedCommissioning, opcode: 0x04, payload: [1, 2, 3]), on: exchange)
            let reply = try await transport.receive(on: exchange, timeout: .seconds(10))
            #expect(reply.protocolID == .userDirectedCommissioning && reply.opcode == 0x05)
            #expect(reply.payload == (0..<8).map { UInt8(truncatingIfNeeded: device.nodeID >> (8 * $0)) })
            await transport.shutdown()
            await hub.close()
        }
    }
}

extension HubNodeTests {
    /// A device of the fabric that opens CASE sessions without end makes the node close older ones, never grow past
    /// `NodeConstants.acceptedCASESessionsPerFabric`; the newest still answers.
    @Test func aFabricsSessionsAreCappedAndTheNewestAnswers() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let link = try await hub.link()
            let device = try await enrolledDevice(on: hub.authority, seed: 7)
            let limit = NodeConstants.acceptedCASESessionsPerFabric
            var transports: [MatterTransport] = []
            var newest: InteractionClient?
            for _ in 0..<(limit + 3) {
                let (_, client, transport) = try await Self.openCASE(to: link, as: device, hub: hub)
                transports.append(transport)
                newest = client
            }
            let accepted = await link.node.acceptedSessionCount
            #expect(accepted == limit)
            let report = try await #require(newest).read([
                BasicInformationCluster.Attributes.vendorID.path(endpoint: 0)
            ])
            #expect(!report.attributeReports.isEmpty)
            for transport in transports { await transport.shutdown() }
            await hub.close()
        }
    }
}
