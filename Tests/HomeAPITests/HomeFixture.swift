import Foundation
import HomeHub
import HomeRecords
import MatterDataModel
import Synchronization
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// A home on a fresh temporary state directory, and a second connection to its store that adds devices the way the
/// commissioner does. The directory is removed when the body returns.
func withHome<Result>(_ body: (Home, HubStore, String) async throws -> Result) async throws -> Result {
    var template = Array((NSTemporaryDirectory() + "/swift-home-api-tests-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    let path = String(cString: created)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let home = try await Home.connect(stateDirectory: path)
    let store = try await HubStore(path: path + "/hub.sqlite")
    // A home followed live holds a transport whose socket polls: stop it, or it keeps a thread busy after the test.
    do {
        let result = try await body(home, store, path)
        await home.disconnect()
        return result
    } catch {
        await home.disconnect()
        throw error
    }
}

/// Adds a commissioned node with the given endpoints (endpoint, device type) and its devices, as `Hub.commission` does.
@discardableResult
func addNode(
    _ store: HubStore, _ nodeID: UInt64, endpoints: [(UInt16, UInt32)], named name: String, room: String? = nil
) async throws -> [DeviceID] {
    try await store.beginCommissioning(
        nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8000,
        attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
    try await store.setEndpoints(
        [EndpointDeviceType(endpoint: 0, deviceType: 0x0016, revision: 1)]
            + endpoints.map { EndpointDeviceType(endpoint: $0.0, deviceType: $0.1, revision: 3) }, of: nodeID)
    try await store.markCommissioned(nodeID)
    return try await store.addDevices(of: nodeID, named: name, inRoom: room)
}

/// Consumes a sequence in a task of its own and keeps what it emits, so a test can wait for values with a deadline.
final class Recorder<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var finished = false
        var error: HomeError?
    }

    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// `consume` iterates a sequence, passing each value to `record`: `Recorder { record in for try await x in … { record(x) } }`.
    init(_ consume: @escaping @Sendable (_ record: @Sendable (Value) -> Void) async throws -> Void) {
        task.withLock { task in
            task = Task { [self] in
                do {
                    try await consume { value in self.state.withLock { $0.values.append(value) } }
                } catch let error as HomeError {
                    state.withLock { $0.error = error }
                } catch {
                    Issue.record("the sequence threw \(error), which is not a HomeError")
                }
                state.withLock { $0.finished = true }
            }
        }
    }

    var values: [Value] { state.withLock { $0.values } }
    var finished: Bool { state.withLock { $0.finished } }
    var error: HomeError? { state.withLock { $0.error } }

    /// The values once there are at least `count` (or the sequence ended, or 30 seconds passed: a ceiling for a loaded machine, not an expected time).
    func values(count: Int) async -> [Value] {
        await until { $0.values.count >= count || $0.finished }
        return values
    }

    /// Waits until the values seen so far satisfy `condition` (or the sequence ended, or 30 seconds passed).
    func until(_ condition: @escaping ([Value]) -> Bool) async {
        await until { condition($0.values) || $0.finished }
    }

    func waitUntilFinished() async {
        await until { $0.finished }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }

    private func until(_ condition: (State) -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(30)
        while !state.withLock({ condition($0) }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Longer than the poll interval, so a change another connection made would have been seen.
let quietPeriod: Duration = .milliseconds(500)
