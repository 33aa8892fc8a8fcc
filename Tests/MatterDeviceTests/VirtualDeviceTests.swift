import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterCrypto
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterOnboarding
import MatterPlatform
import MatterSecureChannel
import MatterTLV
import MatterTestSupport
import MatterTime
import Testing

/// The device in-process on loopback, driven by our own hub: commissioning, CASE from stored state, invoke and
/// subscription, access control, fail-safe rollback and a second fabric.
@Suite(.serialized)
struct VirtualDeviceTests {
    @Test func hubCommissionsTheDeviceAndReachesItAgainAfterBothRestart() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            #expect(result.attestation.trusted)
            #expect(result.description?.vendorName == "swift-home")
            #expect(result.description?.endpoints.map(\.endpoint) == [0, 1])
            #expect(result.description?.endpoints.last?.deviceTypes.map(\.deviceType) == [0x0100])
            let fabrics = await fixture.device.fabrics
            #expect(fabrics.map(\.nodeID) == [result.nodeID])
            #expect(
                fabrics.first?.accessControl == [
                    AccessControlEntry(privilege: .administer, authMode: .case, subjects: [hub.authority.hubNodeID])
                ])
            #expect(await fixture.device.isCommissioningWindowOpen == false)
            #expect(await fixture.device.isFailSafeArmed == false)
            await fixture.device.shutdown()

            // The device restarts from its state file (on a new port, which mDNS would announce; here the hub is told);
            // a fresh hub on the hub's state pings it by CASE.
            let restarted = try await LoopbackFixture.start(in: directory)
            #expect(await restarted.device.fabrics.map(\.nodeID) == [result.nodeID])
            #expect(await restarted.device.isCommissioningWindowOpen == false)
            let again = try await Hub(statePath: fixture.hubPath)
            try await again.store.updateReachability(
                of: result.nodeID, addresses: [restarted.address], mrpParameters: nil)
            let ping = try await again.ping(try again.devices()[0], interfaces: [])
            #expect(ping.vendorName == "swift-home")
            #expect(
                restarted.lines.all.contains {
                    $0.hasPrefix(
                        "[session] CASE from node 0x\(String(hub.authority.hubNodeID, radix: 16, uppercase: true))")
                })
            await restarted.device.shutdown()
        }
    }

    @Test func whenTheStoreRefusesTheFinishedNodeTheDeviceLeavesTheFabricAndNothingIsStored() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            // An empty name is refused by the store in the very transaction that would make the node commissioned.
            let request = try fixture.request()
            await #expect(throws: CommissioningError.self) {
                try await hub.commission(request, name: "  ", room: nil, progress: { _ in })
            }
            #expect(try await hub.store.nodes().isEmpty)
            #expect(try await hub.devices().isEmpty)
            // CommissioningComplete had made the fabric permanent: RemoveFabric took it back, and the window reopened.
            #expect(await fixture.device.fabrics.isEmpty)
            #expect(await fixture.device.isCommissioningWindowOpen)
            await fixture.device.shutdown()
        }
    }

    @Test func theHubResumesItsCASESessionAfterARestartTooAndTheResumedSessionCarriesReads() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            let transport = try MatterTransport()
            defer { Task { await transport.shutdown() } }
            let hubNode = String(hub.authority.hubNodeID, radix: 16, uppercase: true)

            _ = try await hub.establishSession(to: result.nodeID, interfaces: [], over: transport)
            #expect(
                await eventually(within: .seconds(5)) {
                    fixture.lines.all.contains { $0.hasPrefix("[session] CASE from node 0x\(hubNode)") }
                })
            #expect(!fixture.lines.all.contains { $0.hasPrefix("[session] CASE (resumed)") })

            // The second session resumes the first (Sigma1 → Sigma2Resume → StatusReport), the third the second; the
            // fourth, by a hub started again on the same state (nothing in memory), the third.
            for expected in 1...3 {
                let opener = expected < 3 ? hub : try await Hub(statePath: fixture.hubPath)
                let resumed = try await opener.establishSession(to: result.nodeID, interfaces: [], over: transport)
                #expect(
                    await eventually(within: .seconds(5)) {
                        fixture.lines.all.filter { $0.hasPrefix("[session] CASE (resumed) from node 0x\(hubNode)") }
                            .count == expected
                    })
                let client = InteractionClient(
                    transport: transport, session: resumed.session, peerParameters: resumed.peerParameters)
                let vendorName = BasicInformationCluster.Attributes.vendorName
                let report = try await client.read([vendorName.path(endpoint: 0)])
                var cache = AttributeCache()
                cache.apply(report.attributeReports)
                #expect(try cache.value(vendorName, endpoint: 0) == "swift-home")
            }
            await fixture.device.shutdown()
        }
    }

    /// The hub's live connections store each node's cache when they stop; a hub started again on the state shows
    /// the node from it at once, before the node is reached, and subscribes from its data versions.
    @Test func aRestartedHubShowsEachNodeFromItsStoredCacheBeforeReachingIt() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            // Commissioning stored what its interview read: a command right after it knows what each endpoint serves.
            let interviewed = try #require(await hub.store.attributeCache(of: result.nodeID))
            #expect(
                try interviewed.value(DescriptorCluster.Attributes.serverList, endpoint: 1)?.contains(OnOffCluster.id)
                    == true)
            let first = NodeConnections(hub: hub, interfaces: [])
            try await first.connection(to: result.nodeID).connected()
            let live = try await first.connection(to: result.nodeID).cache
            await first.stopAll()
            let stored = try #require(await hub.store.attributeCache(of: result.nodeID))
            #expect(stored == live)
            #expect(try stored.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0) == "swift-home")

            let restarted = NodeConnections(hub: try await Hub(statePath: fixture.hubPath), interfaces: [])
            let connection = try await restarted.connection(to: result.nodeID)
            var events = await connection.events().makeAsyncIterator()
            guard case .connectivity(let state)? = await events.next() else {
                Issue.record("no state first")
                return
            }
            #expect(state != .online)
            #expect(await events.next() == .attributes(Set(stored.paths)))
            try await connection.connected()
            await restarted.stopAll()
            await fixture.device.shutdown()
        }
    }

    /// A hub process that died (its transport gone, no CloseSession sent) leaves its subscription on the device; the
    /// next hub's live subscription replaces it rather than taking another of the device's few slots.
    @Test func theNextHubsSubscriptionReplacesTheOneADeadHubLeft() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            // Commissioning stored what its interview read: a command right after it knows what each endpoint serves.
            let interviewed = try #require(await hub.store.attributeCache(of: result.nodeID))
            #expect(
                try interviewed.value(DescriptorCluster.Attributes.serverList, endpoint: 1)?.contains(OnOffCluster.id)
                    == true)
            let first = NodeConnections(hub: hub, interfaces: [])
            try await first.connection(to: result.nodeID).connected()
            #expect(await fixture.device.subscriptionCount == 1)
            try await hub.link().transport.shutdown()

            let next = NodeConnections(hub: try await Hub(statePath: fixture.hubPath), interfaces: [])
            try await next.connection(to: result.nodeID).connected()
            #expect(await fixture.device.subscriptionCount == 1, "the dead hub's subscription was dropped")
            await next.stopAll()
            await first.stopAll()
            await fixture.device.shutdown()
        }
    }

    @Test func toggleChangesOnOffAndTheSubscriptionReportsIt() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(hub, nodeID: result.nodeID, transport: transport)
            let onOff = AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0x0000)
            let (subscription, updates) = try await client.subscribeWithReports(
                SubscribeRequestMessage(minIntervalFloor: 0, maxIntervalCeiling: 30, attributeRequests: [onOff]))
            #expect(Self.onOff(in: subscription.priming) == false)

            #expect(try await client.invoke(endpoint: 1, cluster: 0x0006, command: 0x02, fields: .structure([])) == nil)
            var reports = updates.makeAsyncIterator()
            let report = try await reports.next()
            #expect(report.flatMap(Self.onOff) == true)
            #expect(Self.onOff(in: try await client.read([onOff])) == true)
            #expect(fixture.lines.all.contains("[light] ON"))

            // Off is persisted like On: the state file holds what a restart restores.
            _ = try await client.invoke(endpoint: 1, cluster: 0x0006, command: 0x00, fields: .structure([]))
            #expect(try await reports.next().flatMap(Self.onOff) == false)
            let stored = try #require(try fixture.store.load())
            #expect(stored.clusters["1/6"] == Data(TLVWriter.encode(TLVElement(.bool(false)))))
            await subscription.cancel()
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    @Test func aSubjectWithoutAnACLEntryIsRefusedWithUnsupportedAccess() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            // Another node of the same fabric: valid certificates, but the ACL names only the hub.
            let key = P256.PrivateKey()
            let csr = try CertificateSigningRequest(
                subject: DistinguishedName([.commonName("intruder")]), signingKey: key)
            let intruderID: UInt64 = 0x0000_0000_1234_5678
            let (noc, icac) = try hub.authority.issueNOC(for: csr, nodeID: intruderID)
            let own = hub.authority.operationalCredentials
            let credentials = OperationalCredentials(
                fabricID: own.fabricID, nodeID: intruderID, rootPublicKey: own.rootPublicKey,
                identityProtectionKey: own.identityProtectionKey, noc: noc, icac: icac, operationalKey: key)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(
                credentials: credentials, validator: hub.authority.peerValidator, nodeID: result.nodeID,
                transport: transport)
            let onOff = AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0x0000)
            let report = try await client.read([onOff])
            guard case .status(let status)? = report.attributeReports.first else {
                Issue.record("expected a status, got \(report.attributeReports)")
                return
            }
            #expect(status.status.status == .unsupportedAccess)
            await #expect {
                _ = try await client.invoke(endpoint: 1, cluster: 0x0006, command: 0x01, fields: .structure([]))
            } throws: { error in
                (error as? InteractionClientError)?.status == .unsupportedAccess
            }
            #expect(!fixture.lines.all.contains("[light] ON"))
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    /// On virtual time: the fail-safe rolls AddNOC back when its 2 s run out.
    @Test func anExpiredFailSafeRollsBackAddNOC() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 4)
            let clock = network.clock
            let fixture = try await LoopbackFixture.start(in: directory, network: network)
            let hub = try await Hub(statePath: fixture.hubPath)
            let transport = try fixture.controllerTransport()
            let nodeID: UInt64 = 0x0000_0000_00AB_CDEF
            let added = await drive(clock) {
                () -> (armedAt: Instant, status: OperationalCredentialsCluster.NodeOperationalCertStatusEnum)? in
                guard let (client, _) = try? await fixture.paseClient(transport: transport),
                    let armed = try? await client.invoke(
                        GeneralCommissioningCluster.Commands.ArmFailSafe(expiryLengthSeconds: 2, breadcrumb: 1),
                        endpoint: 0),
                    armed.errorCode == .ok
                else { return nil }
                let armedAt = clock.now
                let nonce = [UInt8](repeating: 0x42, count: 32)
                guard
                    let csrResponse = try? await client.invoke(
                        OperationalCredentialsCluster.Commands.CSRRequest(csrNonce: nonce), endpoint: 0),
                    let elements = try? NOCSRElements(tlv: csrResponse.nocsrElements),
                    let csr = try? CertificateSigningRequest(derEncoded: elements.csr),
                    (try? await client.invoke(
                        OperationalCredentialsCluster.Commands.AddTrustedRootCertificate(
                            rootCACertificate: hub.authority.rootCertificateTLV), endpoint: 0)) != nil,
                    let (noc, icac) = try? hub.authority.issueNOC(for: csr, nodeID: nodeID),
                    let response = try? await client.invoke(
                        OperationalCredentialsCluster.Commands.AddNOC(
                            nocValue: noc, icacValue: icac, ipkValue: hub.authority.fabric.ipkEpochKey,
                            caseAdminSubject: hub.authority.caseAdminSubject, adminVendorId: 0xFFF1), endpoint: 0)
                else { return nil }
                return (armedAt, response.statusCode)
            }
            let (armedAt, status) = try #require(added?.value)
            #expect(status == .ok)
            #expect(await fixture.device.fabrics.map(\.nodeID) == [nodeID])
            // Committed state does not include it yet.
            #expect(try fixture.store.load()?.fabrics.isEmpty == true)

            // The commissioner goes away; when the 2 s have passed the device is back where it started.
            let rolledBack = try #require(
                await drive(clock) {
                    while await !fixture.device.fabrics.isEmpty { try? await clock.sleep(for: .milliseconds(10)) }
                    return true
                })
            // Not before its 2 s (less the steps the clock may have moved before the controller's task, on the pool,
            // read it after the response came back from the loop), and noticed within a few steps of the drive after.
            let expiry = rolledBack.at - armedAt
            #expect(expiry >= .milliseconds(1_970) && expiry <= .milliseconds(2_100), "rolled back after \(expiry)")
            #expect(await fixture.device.isFailSafeArmed == false)
            #expect(await fixture.device.isCommissioningWindowOpen)
            // The console line is an effect the device applies after the state changed: it may follow a moment later.
            #expect(
                await eventually(within: .seconds(5)) {
                    fixture.lines.all.contains("[commissioning] fail-safe expired: rolled back fabric 1")
                })
            let refused = await drive(clock) { () -> Bool in
                (try? await fixture.caseClient(hub, nodeID: nodeID, transport: transport)) == nil
            }
            #expect(refused?.value == true, "CASE with the rolled-back NOC must fail")
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    @Test func aSecondControllerJoinsThroughAnEnhancedCommissioningWindow() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let first = try await Hub(statePath: directory + "/first")
            let firstResult = try await fixture.commission(hub: first)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(first, nodeID: firstResult.nodeID, transport: transport)

            // OpenCommissioningWindow with a verifier for a new passcode and discriminator (§11.19.8.1), a timed invoke.
            let passcode: UInt32 = 34_567_890, discriminator: UInt16 = 0x123, iterations: UInt32 = 1_000
            let salt = [UInt8](repeating: 0x5A, count: 32)
            let verifier = try Spake2Plus.verifierData(passcode: passcode, salt: salt, iterations: Int(iterations))
            let fields = TLVValue.structure([
                TLVElement(tag: .context(0), .unsigned(180)), TLVElement(tag: .context(1), .bytes(verifier.serialized)),
                TLVElement(tag: .context(2), .unsigned(UInt64(discriminator))),
                TLVElement(tag: .context(3), .unsigned(UInt64(iterations))),
                TLVElement(tag: .context(4), .bytes(salt)),
            ])
            await #expect {
                _ = try await client.invoke(endpoint: 0, cluster: 0x003C, command: 0x00, fields: fields)
            } throws: { error in
                (error as? InteractionClientError)?.status == .needsTimedInteraction
            }
            #expect(await fixture.device.isCommissioningWindowOpen == false)
            _ = try await client.invoke(
                endpoint: 0, cluster: 0x003C, command: 0x00, fields: fields, timedWindow: .seconds(5))
            #expect(await fixture.device.isCommissioningWindowOpen)

            // The onboarding passcode no longer opens PASE; the new one does, for a second hub.
            await #expect(throws: (any Error).self) {
                _ = try await fixture.paseClient(transport: transport)
            }
            let second = try await Hub(statePath: directory + "/second")
            let payload = SetupPayload(
                vendorID: nil, productID: nil, discoveryCapabilities: .onNetwork, discriminator: .long(discriminator),
                passcode: passcode)
            let secondResult = try await fixture.commission(hub: second, payload: payload)
            let fabrics = await fixture.device.fabrics
            #expect(fabrics.map(\.index) == [1, 2])
            #expect(fabrics.map(\.nodeID) == [firstResult.nodeID, secondResult.nodeID])
            #expect(fabrics.map(\.fabricID) == [first.authority.fabricID, second.authority.fabricID])
            #expect(await fixture.device.isCommissioningWindowOpen == false)

            // Each fabric sees only itself in the fabric-filtered Fabrics list.
            let fabricsPath = AttributePathIB(endpoint: 0, cluster: 0x003E, attribute: 0x0001)
            var cache = AttributeCache()
            _ = cache.apply(try await client.read([fabricsPath]).attributeReports)
            guard case .array(let listed)? = cache.value(endpoint: 0, cluster: 0x003E, attribute: 0x0001)?.value else {
                Issue.record("no Fabrics list")
                return
            }
            #expect(listed.count == 1)
            #expect(listed.first?[context: 254]?.value == .unsigned(1))
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    // MARK: Bridged devices

    /// A bridge adds a bridged light and removes it while a controller subscribes to everything: the PartsLists of the
    /// root and the Aggregator follow, the new endpoint is reported whole and answers, the removed one answers no more,
    /// and its ID is not used again.
    @Test func aBridgeAddsAndRemovesABridgedDeviceWhileASubscriberWatches() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory, kind: .bridge)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(hub, nodeID: result.nodeID, transport: transport)
            let (subscription, updates) = try await client.subscribeWithReports(
                SubscribeRequestMessage(
                    minIntervalFloor: 0, maxIntervalCeiling: 30,
                    attributeRequests: [AttributePathIB()]))
            var cache = AttributeCache()
            cache.apply(subscription.priming.attributeReports)
            #expect(try Self.parts(of: 0, in: cache) == [1, 2, 3])
            var reports = updates.makeAsyncIterator()

            let shed = try await fixture.device.addBridgedDevice(label: "Shed light")
            #expect(shed == 4)
            let added = try #require(try await reports.next())
            cache.apply(added.attributeReports)
            #expect(try Self.parts(of: 0, in: cache) == [1, 2, 3, 4])
            #expect(try Self.parts(of: 1, in: cache) == [2, 3, 4])
            // The new endpoint arrives whole: what it is, what it is called, its state, and every global attribute.
            #expect(
                try cache.value(DescriptorCluster.Attributes.deviceTypeList, endpoint: 4)?.map(\.deviceType) == [
                    MatterDeviceTypes.onOffLight.id, MatterDeviceTypes.bridgedNode.id,
                ])
            #expect(
                try cache.value(BridgedDeviceBasicInformationCluster.Attributes.nodeLabel, endpoint: 4) == "Shed light")
            #expect(try cache.value(OnOffCluster.Attributes.onOff, endpoint: 4) == false)
            #expect(
                Set(
                    added.attributeReports.compactMap(\.path.concrete).filter {
                        $0.endpoint == 4 && $0.cluster == OnOffCluster.id.rawValue
                    }
                    .map(\.attribute)) == [0x0000, 0xFFF8, 0xFFF9, 0xFFFB, 0xFFFC, 0xFFFD])
            #expect(await fixture.device.bridgedEndpoints == [2, 3, 4])

            // It answers reads and commands like any light.
            _ = try await client.invoke(
                endpoint: 4, cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.On.id.rawValue,
                fields: .structure([]))
            #expect(
                Self.onOff(
                    in: try await client.read([AttributePathIB(endpoint: 4, cluster: 0x0006, attribute: 0x0000)]))
                    == true)
            #expect(fixture.lines.all.contains("[Shed light] ON"))

            try await fixture.device.removeBridgedDevice(endpoint: shed)
            var removed = try #require(try await reports.next())
            // The On command's report may come first.
            if removed.attributeReports.allSatisfy({ $0.path.cluster != DescriptorCluster.id.rawValue }) {
                removed = try #require(try await reports.next())
            }
            cache.apply(removed.attributeReports)
            #expect(try Self.parts(of: 0, in: cache) == [1, 2, 3])
            #expect(try Self.parts(of: 1, in: cache) == [2, 3])
            #expect(!removed.attributeReports.contains { $0.path.endpoint == shed })
            let gone = try await client.read([AttributePathIB(endpoint: shed, cluster: 0x0006, attribute: 0x0000)])
            #expect(
                gone.attributeReports == [
                    .status(
                        AttributeStatusIB(
                            path: AttributePathIB(endpoint: shed, cluster: 0x0006, attribute: 0x0000),
                            status: StatusIB(status: .unsupportedEndpoint)))
                ])
            #expect(await fixture.device.bridgedEndpoints == [2, 3])

            // A removed endpoint's ID is retired.
            #expect(try await fixture.device.addBridgedDevice(label: "Porch light") == 5)
            // What the console shows.
            #expect(
                fixture.lines.all.filter { $0.hasPrefix("[bridge]") } == [
                    "[bridge] added \"Shed light\" on endpoint 4", "[bridge] removed endpoint 4",
                    "[bridge] added \"Porch light\" on endpoint 5",
                ])
            await subscription.cancel()
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    /// The state file keeps the added devices (with their state) and the retired IDs: after a restart the bridge has
    /// them, a fixed bridged device it dropped stays gone, and no retired ID comes back.
    @Test func bridgedDevicesAndRetiredEndpointsSurviveARestart() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory, kind: .bridge)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            #expect(try await fixture.device.addBridgedDevice(label: "Shed light") == 4)
            #expect(try await fixture.device.addBridgedDevice(label: "Porch light") == 5)
            try await fixture.device.removeBridgedDevice(endpoint: 4)
            try await fixture.device.removeBridgedDevice(endpoint: 3)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(hub, nodeID: result.nodeID, transport: transport)
            _ = try await client.invoke(
                endpoint: 5, cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.On.id.rawValue,
                fields: .structure([]))
            await transport.shutdown()
            await fixture.device.shutdown()
            #expect(
                try fixture.store.load()?.bridge
                    == BridgeChanges(added: [BridgedDevice(endpoint: 5, label: "Porch light")], retired: [4, 3]))

            let restarted = try await LoopbackFixture.start(in: directory, kind: .bridge)
            #expect(await restarted.device.bridgedEndpoints == [2, 5])
            let again = try MatterTransport()
            let reader = try await restarted.caseClient(hub, nodeID: result.nodeID, transport: again)
            var cache = AttributeCache()
            cache.apply(
                try await reader.read([
                    AttributePathIB(endpoint: 0, cluster: DescriptorCluster.id.rawValue),
                    AttributePathIB(endpoint: 1, cluster: DescriptorCluster.id.rawValue),
                    AttributePathIB(endpoint: 5),
                ]).attributeReports)
            #expect(try Self.parts(of: 0, in: cache) == [1, 2, 5])
            #expect(try Self.parts(of: 1, in: cache) == [2, 5])
            #expect(
                try cache.value(BridgedDeviceBasicInformationCluster.Attributes.nodeLabel, endpoint: 5) == "Porch light"
            )
            #expect(try cache.value(OnOffCluster.Attributes.onOff, endpoint: 5) == true)
            #expect(try await restarted.device.addBridgedDevice(label: "Gate light") == 6)
            await again.shutdown()
            await restarted.device.shutdown()
        }
    }

    /// Only a bridge adds bridged devices, only a bridged device is removed, and a label must fit NodeLabel; each
    /// refusal says why and leaves the device and its state file as they were.
    @Test func bridgeChangesThatCannotBeMadeAreRefusedAndChangeNothing() async throws {
        try await withTemporaryDirectory { directory in
            let light = try await LoopbackFixture.start(in: directory + "/light")
            let lightState = try light.store.load()
            await #expect(
                throws: DeviceError.bridging(
                    "this device is not a bridge: it has no Aggregator endpoint to add a bridged device to")
            ) {
                try await light.device.addBridgedDevice(label: "Shed light")
            }
            await #expect(throws: DeviceError.bridging("endpoint 1 is not a bridged device (bridged devices: none)")) {
                try await light.device.removeBridgedDevice(endpoint: 1)
            }
            #expect(try light.store.load() == lightState)
            await light.device.shutdown()

            let bridge = try await LoopbackFixture.start(in: directory + "/bridge", kind: .bridge)
            let bridgeState = try bridge.store.load()
            await #expect(throws: DeviceError.bridging("endpoint 1 is not a bridged device (bridged devices: 2, 3)")) {
                try await bridge.device.removeBridgedDevice(endpoint: 1)
            }
            await #expect(throws: DeviceError.bridging("endpoint 0 is not a bridged device (bridged devices: 2, 3)")) {
                try await bridge.device.removeBridgedDevice(endpoint: 0)
            }
            await #expect(throws: DeviceError.bridging("endpoint 9 does not exist (bridged devices: 2, 3)")) {
                try await bridge.device.removeBridgedDevice(endpoint: 9)
            }
            let long = String(repeating: "x", count: 33)
            await #expect(
                throws: DeviceError.invalidSetting(
                    "a bridged device's label is 1 to 32 bytes (NodeLabel), \"\(long)\" has 33")
            ) {
                try await bridge.device.addBridgedDevice(label: long)
            }
            await #expect(
                throws: DeviceError.invalidSetting("a bridged device's label is 1 to 32 bytes (NodeLabel), \"\" has 0")
            ) {
                try await bridge.device.addBridgedDevice(label: "")
            }
            #expect(try bridge.store.load() == bridgeState)
            #expect(await bridge.device.bridgedEndpoints == [2, 3])
            // A refused removal retired nothing: the next device still takes endpoint 4.
            #expect(try await bridge.device.addBridgedDevice(label: "Shed light") == 4)
            await bridge.device.shutdown()
        }
    }

    private static func parts(of endpoint: UInt16, in cache: AttributeCache) throws -> [UInt16]? {
        try cache.value(DescriptorCluster.Attributes.partsList, endpoint: endpoint)
    }

    private static func onOff(in report: InteractionReport) -> Bool? {
        for case .data(let data) in report.attributeReports
        where data.path.cluster == 0x0006 && data.path.attribute == 0x0000 {
            if case .bool(let value) = data.data.value { return value }
        }
        return nil
    }
}

/// A shared device's window on virtual time: open for its 180 s, then closed, and its code no longer opens PASE.
@Suite(.timeLimit(.minutes(1))) struct EnhancedCommissioningWindowTests {
    @Test func theWindowClosesWhenItsTimeoutRunsOutAndItsCodeStopsWorking() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 9)
            let clock = network.clock
            let fixture = try await LoopbackFixture.start(in: directory, network: network)
            let hub = try await Hub(statePath: fixture.hubPath)
            let transport = try fixture.controllerTransport()
            let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: transport)
            let request = try fixture.request()
            let commissioned = await drive(clock) { try? await commissioner.commission(request) }
            let result = try #require(commissioned?.value)

            let window = try EnhancedCommissioningWindow(timeoutSeconds: 180, vendorID: 0xFFF1, productID: 0x8000)
            #expect(!Passcode.forbidden.contains(window.passcode) && window.discriminator <= 0xFFF)
            let opened = await drive(clock) { () -> Instant? in
                guard let client = try? await fixture.caseClient(hub, nodeID: result.nodeID, transport: transport),
                    (try? await client.invoke(window.command, endpoint: 0)) != nil
                else { return nil }
                return clock.now
            }
            let openedAt = try #require(opened?.value)
            #expect(await fixture.device.isCommissioningWindowOpen)

            // Still open a moment before its 180 s; closed once they have passed.
            clock.advance(to: openedAt + .seconds(179))
            #expect(await fixture.device.isCommissioningWindowOpen)
            let closed = await drive(clock, step: .milliseconds(100)) { () -> Bool in
                while await fixture.device.isCommissioningWindowOpen { try? await clock.sleep(for: .milliseconds(100)) }
                return true
            }
            let closedAfter = try #require(closed?.at) - openedAt
            #expect(
                closedAfter >= .seconds(180) && closedAfter <= .milliseconds(180_400), "closed after \(closedAfter)")
            let pase = await drive(clock) { () -> Bool in
                (try? await fixture.paseClient(passcode: window.passcode, transport: transport)) != nil
            }
            #expect(pase?.value == false, "the window's code still opened PASE after it closed")
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }
}
