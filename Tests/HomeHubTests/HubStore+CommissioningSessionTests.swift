import Foundation
import HomeRecords
import Testing

@testable import HomeHub

@Suite struct HubStoreCommissioningSessionTests {
    private func session(
        _ id: String, _ structureID: String,
        deadline: Date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 600).rounded(.down))
    ) throws -> CommissioningSessionRecord {
        CommissioningSessionRecord(
            id: id, structureID: structureID, owner: try #require(ProcessIdentity.current()), deadline: deadline,
            interfaces: ["lo", "eth0"], paaTrustStore: "/paa")
    }

    private func begin(_ store: HubStore, _ nodeID: UInt64, session: String?) async throws {
        try await store.beginCommissioning(
            nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8000, attestation: .init(verdict: "test", trusted: true),
            session: session)
    }

    @Test("a session reads back as written; a second one is refused while the first is live")
    func roundTripAndExclusion() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await HubStore(path: directory + "/hub.sqlite")
            #expect(try await store.schemaVersion() == HubSchema.migrations.count)
            let structureID = try #require(try await store.structures().first?.id)
            let first = try session("first", structureID)
            #expect(try await store.openCommissioningSession(first, now: Date()) == nil)
            #expect(try await store.commissioningSession() == first)
            await #expect(throws: HubStoreError.commissioningInProgress(first.owner)) {
                try await store.openCommissioningSession(try session("second", structureID), now: Date())
            }
            #expect(try await store.commissioningSession()?.id == "first")
        }
    }

    @Test("a node joins the open session in the transaction that stores it; without that session it is not stored")
    func nodesJoinTheSession() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            await #expect(throws: HubStoreError.noCommissioningSession) { try await begin(store, 7, session: "absent") }
            #expect(try await store.nodes().isEmpty)
            try await store.openCommissioningSession(try session("open", structureID), now: Date())
            try await begin(store, 7, session: "open")
            #expect(try await store.commissioningSession()?.nodeIDs == [7])
        }
    }

    @Test("complete keeps the session's devices and returns them; with none it is refused and the session stays")
    func complete() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            try await store.openCommissioningSession(try session("s", structureID), now: Date())
            await #expect(throws: HubStoreError.nothingCommissioned) {
                try await store.completeCommissioningSession("s")
            }
            try await begin(store, 9, session: "s")
            try await store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3)], of: 9)
            try await store.markCommissioned(9)
            try await store.addDevices(of: 9, named: "Lamp", inRoom: nil)
            await #expect(throws: HubStoreError.noCommissioningSession) {
                try await store.completeCommissioningSession("other")
            }
            #expect(try await store.completeCommissioningSession("s") == [DeviceID(nodeID: 9, endpoint: 1)])
            #expect(try await store.commissioningSession() == nil)
            #expect(try await store.devices().map(\.name) == ["Lamp"])
        }
    }

    @Test("configure names the session's devices, numbered, and puts them in a room created in the session's structure")
    func configure() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            try await store.openCommissioningSession(try session("s", structureID), now: Date())
            try await begin(store, 9, session: "s")
            try await store.setEndpoints(
                [
                    EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3),
                    EndpointDeviceType(endpoint: 2, deviceType: 0x0100, revision: 3),
                ], of: 9)
            try await store.markCommissioned(9)
            try await store.addDevices(of: 9, named: "CircuitMatter", inRoom: nil)
            try await store.configureSessionDevices("s", name: "Desk lamp", roomName: "Kitchen")
            let devices = try await store.devices()
            #expect(devices.map(\.name) == ["Desk lamp 1", "Desk lamp 2"])
            #expect(devices.map(\.roomName) == ["Kitchen", "Kitchen"])
            #expect(try await store.rooms().map(\.structureID) == [structureID])
            // No room chosen: the devices leave the room, and no room is created.
            try await store.configureSessionDevices("s", name: "Desk lamp", roomName: nil)
            #expect(try await store.devices().map(\.roomName) == [nil, nil])
            #expect(try await store.rooms().count == 1)
        }
    }

    @Test("cancel deletes the session's nodes, whatever their state, and returns those it found")
    func cancel() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            try await begin(store, 1, session: nil)
            try await store.openCommissioningSession(try session("s", structureID), now: Date())
            try await begin(store, 2, session: "s")
            try await begin(store, 3, session: "s")
            try await store.markCommissioned(3)
            #expect(try await store.cancelCommissioningSession("s") == [2, 3])
            #expect(try await store.nodes().map(\.nodeID) == [1])
            #expect(try await store.commissioningSession() == nil)
        }
    }

    @Test("an abandoned session (past its deadline) is cleared with its nodes and returned when the next one opens")
    func abandonedCleared() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            let stale = try session("stale", structureID, deadline: Date().addingTimeInterval(-1))
            try await store.openCommissioningSession(stale, now: Date())
            try await begin(store, 5, session: "stale")
            let cleared = try await store.openCommissioningSession(try session("fresh", structureID), now: Date())
            #expect(cleared?.id == "stale")
            #expect(cleared?.nodeIDs == [5])
            #expect(try await store.nodes().isEmpty)
            #expect(try await store.commissioningSession()?.nodeIDs == [])
        }
    }

    @Test("grants are per user and structure, and a revoke removes them")
    func grants() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            await #expect(throws: HubStoreError.unknownStructure("nowhere")) {
                try await store.grantCommissioning(uid: 1000, structureID: "nowhere")
            }
            try await store.grantCommissioning(uid: 1000, structureID: structureID)
            #expect(try await store.hasCommissioningGrant(uid: 1000, structureID: structureID))
            #expect(try await !store.hasCommissioningGrant(uid: 1001, structureID: structureID))
            try await store.revokeCommissioning(uid: 1000, structureID: structureID)
            #expect(try await !store.hasCommissioningGrant(uid: 1000, structureID: structureID))
        }
    }
}
