import Foundation
import HomeRecords
import MatterDataModel
import MatterDiscovery
import MatterMessaging
import MatterPlatform
import Synchronization
import Testing

@testable import HomeHub

@Suite struct HubStoreTests {
    static let trusted = NodeRecord.Attestation(verdict: "DAC chains to PAA \"Matter Test PAA\"", trusted: true)

    static func fabric(id: UInt64 = 0x2906_C908_D115_D362) -> FabricRecord {
        FabricRecord(
            fabricID: id, hubNodeID: 0xFFFF_FFEF_0000_0001, vendorID: 0xFFF1, rootCertificate: [0x15, 0x18],
            intermediateCertificate: nil, hubOperationalCertificate: [0x15, 0x30, 0x18],
            ipkEpochKey: [UInt8](repeating: 0xA5, count: 16), createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func aNewDatabaseRecordsItsSchemaVersion() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            #expect(try await store.schemaVersion() == HubSchema.migrations.count)
            #expect(permissions(base + "/hub.sqlite") == 0o600)
            // Reopening neither migrates again nor fails.
            #expect(try await HubStore(path: base + "/hub.sqlite").schemaVersion() == HubSchema.migrations.count)
        }
    }

    /// Writes that wait on another process's lock wait on the store's queue: more of them than the cooperative pool
    /// has threads still leave it free, so other tasks run while they wait, and the writes land once the lock goes.
    @Test func writesWaitingForALockHoldNoCooperativeThread() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            let otherProcess = try SQLiteDatabase(path: base + "/hub.sqlite")
            try otherProcess.execute("BEGIN IMMEDIATE")
            final class Count: Sendable { let value = Mutex(0) }
            let landed = Count()
            let writers = (0..<2 * ProcessInfo.processInfo.activeProcessorCount + 2).map { index in
                Task {
                    _ = try await store.createRoom(named: "Room \(index)", in: structureID)
                    landed.value.withLock { $0 += 1 }
                }
            }
            // Work that needs the cooperative pool, while every writer waits on the lock.
            let sum = await withTaskGroup(of: Int.self) { group in
                for value in 1...100 { group.addTask { value } }
                return await group.reduce(0, +)
            }
            #expect(sum == 5050)
            #expect(landed.value.withLock { $0 } == 0, "no write lands while the other process holds its lock")
            try otherProcess.execute("COMMIT")
            for writer in writers { try await writer.value }
            #expect(try await store.rooms().count == writers.count)
        }
    }

    @Test func aDatabaseFromANewerBuildIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let newer = HubSchema.migrations.count + 1
            try store.database.execute("UPDATE schema_version SET version = \(newer)")
            await #expect(throws: HubStoreError.newerSchema(found: newer, supported: HubSchema.migrations.count)) {
                try await HubStore(path: base + "/hub.sqlite")
            }
            #expect(
                "\(HubStoreError.newerSchema(found: 7, supported: 1))"
                    == "the database has schema version 7, newer than the 1 this build knows: use a newer swift-home")
        }
    }

    @Test func theFabricReadsBackInAnotherConnection() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            #expect(try await store.fabric() == nil)
            try await store.insertFabric(Self.fabric())
            #expect(try await HubStore(path: base + "/hub.sqlite").fabric() == Self.fabric())
            await #expect(throws: HubStoreError.fabricExists(0x2906_C908_D115_D362)) {
                try await store.insertFabric(Self.fabric(id: 5))
            }
        }
    }

    @Test func theFabricRecordNeverPrintsItsEpochKey() {
        let record = Self.fabric()
        #expect(
            "\(record)"
                == "fabric 0x2906C908D115D362, hub node 0xFFFFFFEF00000001, no intermediate CA, created 2023-11-14 22:13:20 +0000"
        )
        var dumped = ""
        dump(record, to: &dumped)
        #expect(!dumped.contains("ipkEpochKey") && !dumped.contains("165"))
    }

    @Test func aNodeIsCommissionedOnlyAfterCommissioningComplete() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let nodeID: UInt64 = 0xCD55_44AA_7B13_EF14
            let inserted = try await store.beginCommissioning(
                nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8001, attestation: Self.trusted)
            #expect(try await store.node(nodeID) == inserted)
            #expect(try await store.node(nodeID)?.state == .commissioning)
            #expect(try await store.pendingCommissionings().map(\.nodeID) == [nodeID])

            try await store.markCommissioned(nodeID)
            #expect(try await store.node(nodeID)?.state == .commissioned)
            #expect(try await store.pendingCommissionings().isEmpty)
            // A commissioned node cannot fall back to failed, nor be inserted twice.
            await #expect(throws: HubStoreError.wrongState(nodeID, .commissioned, expected: .commissioning)) {
                try await store.markFailed(nodeID)
            }
            await #expect(throws: HubStoreError.nodeExists(nodeID, .commissioned)) {
                try await store.beginCommissioning(nodeID: nodeID, vendorID: 1, productID: 1, attestation: Self.trusted)
            }
            #expect(
                "\(HubStoreError.wrongState(nodeID, .commissioned, expected: .commissioning))"
                    == "node 0xCD5544AA7B13EF14 is commissioned, not commissioning")
        }
    }

    @Test func aCrashedCommissioningIsFoundAndRolledBack() async throws {
        try await withTemporaryDirectory { base in
            let path = base + "/hub.sqlite"
            do {
                let store = try await HubStore(path: path)
                try await store.beginCommissioning(
                    nodeID: 0x11, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
                try await store.beginCommissioning(
                    nodeID: 0x22, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
                try await store.beginCommissioning(
                    nodeID: 0x33, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
                try await store.markCommissioned(0x33)
                try await store.setEndpoints(
                    [EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3)], of: 0x22)
            }
            // The process "crashed"; a new one finds the two unfinished commissionings.
            let store = try await HubStore(path: path)
            #expect(try await store.pendingCommissionings().map(\.nodeID) == [0x11, 0x22])
            try await store.markFailed(0x11)
            try await store.deleteNode(0x22)
            #expect(try await store.pendingCommissionings().isEmpty)
            #expect(try await store.nodes().map(\.nodeID) == [0x11, 0x33])
            #expect(try await store.node(0x11)?.state == .failed)
            #expect(try await store.node(0x22) == nil)
            #expect(try await store.endpoints(of: 0x22).isEmpty)
            await #expect(throws: HubStoreError.unknownNode(0x22)) { try await store.deleteNode(0x22) }
            await #expect(throws: HubStoreError.unknownNode(0x22)) { try await store.markCommissioned(0x22) }
        }
    }

    @Test func addressesMRPAndIdentityReadBack() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let addresses: [SocketAddress] = [
                .ipv6(IPv6Address(0xFE80_0000_0000_0000, 0x1234), port: 5540, scopeID: 3),
                .ipv4(IPv4Address(0xC0A8_0105), port: 5540),
            ]
            let mrp = MRPParameters(
                idleInterval: .milliseconds(5_000), activeInterval: .milliseconds(300),
                activeThreshold: .milliseconds(4_000))
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0x1234, productID: 0x5678,
                attestation: .init(verdict: "test DAC, not trusted", trusted: false), addresses: addresses,
                mrpParameters: mrp)
            var node = try #require(try await store.node(0x42))
            #expect(node.addresses == addresses)
            #expect(node.mrpParameters == mrp)
            #expect(node.attestation == .init(verdict: "test DAC, not trusted", trusted: false))
            #expect(node.vendorID == 0x1234 && node.productID == 0x5678)

            try await store.updateIdentity(of: 0x42, vendorName: "Acme", productName: "Lamp", serialNumber: "SN-1")
            try await store.updateReachability(
                of: 0x42, addresses: [.ipv4(IPv4Address(0x0A00_0002), port: 5541)], mrpParameters: nil)
            node = try #require(try await store.node(0x42))
            #expect(node.vendorName == "Acme" && node.productName == "Lamp" && node.serialNumber == "SN-1")
            #expect(node.addresses == [.ipv4(IPv4Address(0x0A00_0002), port: 5541)])
            #expect(node.mrpParameters == nil)
            await #expect(throws: HubStoreError.unknownNode(0x43)) {
                try await store.updateIdentity(of: 0x43, vendorName: nil, productName: nil, serialNumber: nil)
            }
            await #expect(throws: HubStoreError.unknownNode(0x43)) {
                try await store.updateReachability(of: 0x43, addresses: [], mrpParameters: nil)
            }
        }
    }

    @Test func endpointsAreReplacedAsAWhole() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
            let first = [
                EndpointDeviceType(endpoint: 0, deviceType: 0x0016, revision: 1),
                EndpointDeviceType(endpoint: 1, deviceType: 0x010D, revision: 2),
            ]
            try await store.setEndpoints(first, of: 0x42)
            #expect(try await store.endpoints(of: 0x42) == first)
            let second = [EndpointDeviceType(endpoint: 2, deviceType: 0x0100, revision: 3)]
            try await store.setEndpoints(second, of: 0x42)
            #expect(try await store.endpoints(of: 0x42) == second)
            await #expect(throws: HubStoreError.unknownNode(0x99)) { try await store.setEndpoints(second, of: 0x99) }
        }
    }

    @Test func finishingACommissioningWritesTheNodeAndItsDevicesTogetherOrNothing() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
            // CircuitMatter lists a device type twice on one endpoint: stored once.
            let light = DescriptorCluster.DeviceTypeStruct(deviceType: 0x0100, revision: 3)
            let description = NodeDescription(
                vendorID: 0xFFF1, vendorName: "Acme", productID: 0x8000, productName: "Lamp", serialNumber: "SN-9",
                endpoints: [
                    EndpointDescription(
                        endpoint: 0, deviceTypes: [.init(deviceType: 0x0016, revision: 1)], serverClusters: [],
                        clientClusters: [], parts: [1, 2]),
                    EndpointDescription(
                        endpoint: 1, deviceTypes: [light, light], serverClusters: [], clientClusters: [], parts: []),
                    EndpointDescription(
                        endpoint: 2, deviceTypes: [light], serverClusters: [], clientClusters: [], parts: [],
                        tags: [SemanticTagStruct(mfgCode: .null, namespaceID: 0x08, tag: 0x01)]),
                ])
            let address = SocketAddress.ipv4(IPv4Address(0x7F00_0001), port: 5541)

            // A name the store refuses undoes the whole transaction: the node stays as it was, with no devices.
            await #expect(throws: HubStoreError.self) {
                try await store.finishCommissioning(
                    0x42, description: description, addresses: [address], mrpParameters: nil, deviceName: "  ",
                    room: "Hall")
            }
            #expect(try await store.node(0x42)?.state == .commissioning)
            #expect(try await store.node(0x42)?.productName == nil)
            #expect(try await store.endpoints(of: 0x42).isEmpty)
            #expect(try await store.rooms().isEmpty)

            let devices = try await store.finishCommissioning(
                0x42, description: description, addresses: [address], mrpParameters: nil,
                deviceName: "Lamp", room: "Hall")
            #expect(devices == [DeviceID(nodeID: 0x42, endpoint: 1), DeviceID(nodeID: 0x42, endpoint: 2)])
            let node = try #require(try await store.node(0x42))
            #expect(
                node.state == .commissioned && node.productName == "Lamp" && node.serialNumber == "SN-9"
                    && node.addresses == [address])
            #expect(try await store.endpoints(of: 0x42).count == 3)
            let tags = try await store.semanticTags(of: 0x42)
            #expect(tags == [EndpointSemanticTag(endpoint: 2, namespaceID: 0x08, tag: 0x01)])
            #expect(try await store.devices().map(\.name) == ["Lamp 1", "Lamp 2"])
            #expect(try await store.devices().allSatisfy { $0.roomName == "Hall" })
            // Only once: a commissioned node cannot be finished again.
            await #expect(throws: HubStoreError.wrongState(0x42, .commissioned, expected: .commissioning)) {
                try await store.finishCommissioning(
                    0x42, description: nil, addresses: [], mrpParameters: nil, deviceName: "Lamp", room: nil)
            }
        }
    }

    /// Tags keep the device's order per endpoint, go with the endpoints they were stored with, and reach each device.
    @Test func semanticTagsAreStoredInOrderAndReplacedWithTheEndpoints() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
            let endpoints = [
                EndpointDeviceType(endpoint: 0, deviceType: 0x0016, revision: 1),
                EndpointDeviceType(endpoint: 1, deviceType: 0x000F, revision: 3),
                EndpointDeviceType(endpoint: 2, deviceType: 0x000F, revision: 3),
            ]
            let tags = [
                EndpointSemanticTag(endpoint: 1, namespaceID: 0x08, tag: 0x05, label: "2"),
                EndpointSemanticTag(endpoint: 1, namespaceID: 0x08, tag: 0x00),
                EndpointSemanticTag(endpoint: 2, manufacturerCode: 0xFFF1, namespaceID: 0x80, tag: 0xFF, label: "Bed"),
            ]
            try await store.setEndpoints(endpoints, tags: tags, of: 0x42)
            #expect(try await store.semanticTags(of: 0x42) == tags)
            try await store.markCommissioned(0x42)
            try await store.addDevices(of: 0x42, named: "Panel", inRoom: nil)
            #expect(try await store.devices().map(\.semanticTags) == [Array(tags.prefix(2)), [tags[2]]])
            try await store.setEndpoints(endpoints, of: 0x42)
            #expect(try await store.semanticTags(of: 0x42).isEmpty)
            #expect(try await store.devices().allSatisfy { $0.semanticTags.isEmpty })
        }
    }

    @Test func aLiveNodesDescriptorBringsItsEndpointsTagsAndDevicesInStep() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
            func node(
                _ endpoints: [UInt16: [UInt32]], tags: [UInt16: [SemanticTagStruct]] = [:],
                labels: [UInt16: String] = [:]
            ) -> NodeDescription {
                NodeDescription(
                    vendorID: 0xFFF1, vendorName: "Acme", productID: 0x8000, productName: "Bridge",
                    endpoints: endpoints.keys.sorted().map { endpoint in
                        EndpointDescription(
                            endpoint: endpoint,
                            deviceTypes: endpoints[endpoint]!.map {
                                .init(deviceType: DeviceTypeID(rawValue: $0), revision: 1)
                            },
                            serverClusters: [], clientClusters: [], parts: [], tags: tags[endpoint] ?? [],
                            label: labels[endpoint])
                    })
            }
            let naming = { @Sendable (endpoint: EndpointDescription?) in
                endpoint?.label ?? "Bridge \(endpoint?.endpoint ?? 0)"
            }
            let first = node([0: [0x0016], 1: [0x000E], 2: [0x0100, 0x0013]])
            _ = try await store.finishCommissioning(
                0x42, description: first, addresses: [], mrpParameters: nil, deviceName: "Porch light", room: "Porch")
            #expect(try await store.devices().map(\.name) == ["Porch light"])

            // The same description changes nothing, not even the change counter.
            let counter = try await store.changeCounter()
            #expect(try await store.reconcileEndpoints(of: 0x42, with: first, naming: naming) == false)
            #expect(try await store.changeCounter() == counter)

            // The bridge adds a bridged device with a tag: a new device, in no room, named after the product; the old
            // one keeps its name and room.
            let second = node(
                [0: [0x0016], 1: [0x000E], 2: [0x0100, 0x0013], 3: [0x0100, 0x0013], 4: [0x0100, 0x0013]],
                tags: [3: [SemanticTagStruct(mfgCode: .null, namespaceID: 0x08, tag: 0x00)]], labels: [4: "Shed"])
            #expect(try await store.reconcileEndpoints(of: 0x42, with: second, naming: naming))
            #expect(try await store.devices().map(\.name) == ["Porch light", "Bridge 3", "Shed"])
            #expect(try await store.devices().map(\.roomName) == ["Porch", nil, nil])
            let tags = try await store.semanticTags(of: 0x42)
            #expect(tags == [EndpointSemanticTag(endpoint: 3, namespaceID: 0x08, tag: 0x00)])
            #expect(try await store.changeCounter() > counter)

            // It drops the first one: that device goes, with its endpoint.
            let dropped = try await store.reconcileEndpoints(
                of: 0x42, with: node([0: [0x0016], 1: [0x000E], 3: [0x0100, 0x0013]]), naming: naming)
            #expect(dropped)
            #expect(try await store.devices().map(\.id.endpoint) == [3])
            #expect(Set(try await store.endpoints(of: 0x42).map(\.endpoint)) == [0, 1, 3])
            #expect(try await store.semanticTags(of: 0x42).isEmpty)

            // A description without the root endpoint is not a whole node: nothing changes.
            #expect(try await store.reconcileEndpoints(of: 0x42, with: node([3: [0x0100]]), naming: naming) == false)
            #expect(Set(try await store.endpoints(of: 0x42).map(\.endpoint)) == [0, 1, 3])
            // Only commissioned nodes follow their Descriptor.
            try await store.beginCommissioning(
                nodeID: 0x43, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
            await #expect(throws: HubStoreError.unknownNode(0x43)) {
                try await store.reconcileEndpoints(of: 0x43, with: first, naming: naming)
            }
        }
    }

    @Test func aNodeIDIsHandedOutOnce() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.insertFabric(Self.fabric())
            #expect(try await store.reserveNodeID(0x10))
            #expect(try await !store.reserveNodeID(0x10))
            // Neither the hub's own ID nor a stored node's ID is free, and a deleted node's ID stays taken.
            #expect(try await !store.reserveNodeID(0xFFFF_FFEF_0000_0001))
            try await store.beginCommissioning(nodeID: 0x20, vendorID: 1, productID: 1, attestation: Self.trusted)
            #expect(try await !store.reserveNodeID(0x20))
            #expect(try await store.reserveNodeID(0x30))
            try await store.beginCommissioning(nodeID: 0x30, vendorID: 1, productID: 1, attestation: Self.trusted)
            try await store.deleteNode(0x30)
            #expect(try await !store.reserveNodeID(0x30))
        }
    }

    @Test func aDamagedRowNamesItsColumn() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000, attestation: Self.trusted)
            try store.database.execute("UPDATE nodes SET vendor_id = 70000")
            await #expect(
                throws: HubStoreError.corrupt(table: "nodes", column: "vendor_id", reason: "70000 does not fit UInt16")
            ) { try await store.nodes() }
            #expect(
                "\(HubStoreError.corrupt(table: "nodes", column: "vendor_id", reason: "70000 does not fit UInt16"))"
                    == "the database is damaged: nodes.vendor_id: 70000 does not fit UInt16")
        }
    }
}
