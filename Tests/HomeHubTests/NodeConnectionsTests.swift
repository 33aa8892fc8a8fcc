import Foundation
import HomeRecords
import Testing

@testable import HomeHub

@Suite struct NodeConnectionsTests {
    /// Callers that ask at once (the hub following every node, a client's command) share the node's one connection:
    /// the store is read across an await, and the second caller must not start a second session and subscription.
    @Test func concurrentCallersGetTheOneConnection() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let nodeID: UInt64 = 0x42
            _ = try await HomeModelTests.addLight(hub.store, nodeID, named: "Lamp")
            let connections = NodeConnections(hub: hub, interfaces: [])
            // The store's queue held, so every caller is inside `connection(to:)`, waiting on its read, at once.
            let held = DispatchSemaphore(value: 0)
            hub.store.queue.async { held.wait() }
            let callers = (0..<8).map { _ in Task { try await connections.connection(to: nodeID) } }
            try await Task.sleep(for: .milliseconds(100))
            held.signal()
            var asked: [NodeConnection] = []
            for caller in callers { asked.append(try await caller.value) }
            #expect(asked.allSatisfy { $0 === asked[0] })
            await connections.stopAll()
        }
    }
}
