import Testing

@testable import HomeHub

@Suite struct HubStoreCheckInsTests {
    static let nodeID: UInt64 = 0x0123_4567_89AB_CDEF

    static func registration(key: UInt8, startCounter: UInt32 = 0xFFFF_FFF0) -> HubStore.CheckInRegistration {
        HubStore.CheckInRegistration(
            nodeID: nodeID, key: [UInt8](repeating: key, count: 16), startCounter: startCounter, idleSeconds: 600,
            activeMilliseconds: 10_000)
    }

    /// A registration outlives the process; a check-in is new only when its offset is above the last one (a replay
    /// or an older one is not); registering again replaces it; it goes with its node.
    @Test func aRegistrationOutlivesTheProcessRefusesReplaysAndGoesWithItsNode() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: Self.nodeID, vendorID: 0xFFF1, productID: 0x8001, attestation: HubStoreTests.trusted)
            try await store.saveCheckInRegistration(Self.registration(key: 1))
            #expect(try await store.noteCheckIn(nodeID: Self.nodeID, offset: 3))
            #expect(try await store.noteCheckIn(nodeID: Self.nodeID, offset: 3) == false, "a replay")
            #expect(try await store.noteCheckIn(nodeID: Self.nodeID, offset: 2) == false, "an older one")

            let restarted = try await HubStore(path: base + "/hub.sqlite")
            let stored = try await restarted.checkInRegistrations()
            #expect(stored.map(\.lastOffset) == [3])
            #expect(stored.first?.key == [UInt8](repeating: 1, count: 16))
            #expect(stored.first?.startCounter == 0xFFFF_FFF0)
            #expect(stored.first?.period == .seconds(610))

            try await restarted.saveCheckInRegistration(Self.registration(key: 2, startCounter: 7))
            #expect(try await restarted.checkInRegistrations().map(\.key) == [[UInt8](repeating: 2, count: 16)])
            #expect(try await restarted.checkInRegistrations().map(\.lastOffset) == [nil])

            try await restarted.deleteNode(Self.nodeID)
            #expect(try await restarted.checkInRegistrations().isEmpty)
            #expect(try await restarted.removeCheckInRegistration(nodeID: Self.nodeID) == false)
        }
    }
}
