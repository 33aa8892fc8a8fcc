import Foundation
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

    private func begin(_ store: HubStore, _ nodeID: UInt64, session: String?) throws {
        try store.beginCommissioning(
            nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8000, attestation: .init(verdict: "test", trusted: true),
            session: session)
    }

    @Test("a session reads back as written; a second one is refused while the first is live")
    func roundTripAndExclusion() async throws {
        try await withTemporaryDirectory { directory in
            let store = try HubStore(path: directory + "/hub.sqlite")
            #expect(try store.schemaVersion() == HubSchema.migrations.count)
            let structureID = try #require(try store.structures().first?.id)
            let first = try session("first", structureID)
            #expect(try store.openCommissioningSession(first, now: Date()) == nil)
            #expect(try store.commissioningSession() == first)
            #expect(throws: HubStoreError.commissioningInProgress(first.owner)) {
                try store.openCommissioningSession(try session("second", structureID), now: Date())
            }
            #expect(try store.commissioningSession()?.id == "first")
        }
    }

    @Test("a node joins the open session in the transaction that stores it; without that session it is not stored")
    func nodesJoinTheSession() async throws {
        try await withTemporaryDirectory { directory in
            let store = try HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try store.structures().first?.id)
            #expect(throws: HubStoreError.noCommissioningSession) { try begin(store, 7, session: "absent") }
            #expect(try store.nodes().isEmpty)
            try store.openCommissioningSession(try session("open", structureID), now: Date())
            try begin(store, 7, session: "open")
            #expect(try store.commissioningSession()?.nodeIDs == [7])
        }
    }

    @Test("complete keeps the session's devices and returns them; with none it is refused and the session stays")
    func complete() async throws {
        try await withTemporaryDirectory { directory in
            let store = try HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try store.structures().first?.id)
            try store.openCommissioningSession(try session("s", structureID), now: Date())
            #expect(throws: HubStoreError.nothingCommissioned) { try store.completeCommissioningSession("s") }
            try begin(store, 9, session: "s")
            try store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3)], of: 9)
            try store.markCommissioned(9)
            try store.addDevices(of: 9, named: "Lamp", inRoom: nil)
            #expect(throws: HubStoreError.noCommissioningSession) { try store.completeCommissioningSession("other") }
            #expect(try store.completeCommissioningSession("s") == [DeviceID(nodeID: 9, endpoint: 1)])
            #expect(try store.commissioningSession() == nil)
            #expect(try store.devices().map(\.name) == ["Lamp"])
        }
    }

    @Test("configure names the session's devices, numbered, and puts them in a room created in the session's structure")
    func configure() async throws {
        try await withTemporaryDirectory { directory in
            let store = try HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try store.structures().first?.id)
            try store.openCommissioningSession(try session("s", structureID), now: Date())
            try begin(store, 9, session: "s")
            try store.setEndpoints(
                [
                    EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3),
                    EndpointDeviceType(endpoint: 2, deviceType: 0x0100, revision: 3),
                ], of: 9)
            try store.markCommissioned(9)
            try store.addDevices(of: 9, named: "CircuitMatter", inRoom: nil)
            try store.configureSessionDevices("s", name: "Desk lamp", roomName: "Kitchen")
            let devices = try store.devices()
            #expect(devices.map(\.name) == ["Desk lamp 1", "Desk lamp 2"])
            #expect(devices.map(\.roomName) == ["Kitchen", "Kitchen"])
            #expect(try store.rooms().map(\.structureID) == [structureID])
            // No room chosen: the devices leave the room, and no room is created.
            try store.configureSessionDevices("s", name: "Desk lamp", roomName: nil)
            #expect(try store.devices().map(\.roomName) == [nil, nil])
            #expect(try store.rooms().count == 1)
        }
    }

    @Test("cancel deletes the session's nodes, whatever their state, and returns those it found")
    func cancel() async throws {
        try await withTemporaryDirectory { directory in
            let store = try HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try store.structures().first?.id)
            try begin(store, 1, session: nil)
            try store.openCommissioningSession(try session("s", structureID), now: Date())
            try begin(store, 2, session: "s")
            try begin(store, 3, session: "s")
            try store.markCommissioned(3)
            #expect(try store.cancelCommissioningSession("s") == [2, 3])
            #expect(try store.nodes().map(\.nodeID) == [1])
            #expect(try store.commissioningSession() == nil)
        }
    }

    @Test("an abandoned session (past its deadline) is cleared with its nodes and returned when the next one opens")
    func abandonedCleared() async throws {
        try await withTemporaryDirectory { directory in
            let store = try HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try store.structures().first?.id)
            let stale = try session("stale", structureID, deadline: Date().addingTimeInterval(-1))
            try store.openCommissioningSession(stale, now: Date())
            try begin(store, 5, session: "stale")
            let cleared = try store.openCommissioningSession(try session("fresh", structureID), now: Date())
            #expect(cleared?.id == "stale")
            #expect(cleared?.nodeIDs == [5])
            #expect(try store.nodes().isEmpty)
            #expect(try store.commissioningSession()?.nodeIDs == [])
        }
    }

    @Test("grants are per user and structure, and a revoke removes them")
    func grants() async throws {
        try await withTemporaryDirectory { directory in
            let store = try HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try store.structures().first?.id)
            #expect(throws: HubStoreError.unknownStructure("nowhere")) {
                try store.grantCommissioning(uid: 1000, structureID: "nowhere")
            }
            try store.grantCommissioning(uid: 1000, structureID: structureID)
            #expect(try store.hasCommissioningGrant(uid: 1000, structureID: structureID))
            #expect(try !store.hasCommissioningGrant(uid: 1001, structureID: structureID))
            try store.revokeCommissioning(uid: 1000, structureID: structureID)
            #expect(try !store.hasCommissioningGrant(uid: 1000, structureID: structureID))
        }
    }
}
