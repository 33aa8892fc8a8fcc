import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import Synchronization

/// What every value of one `Home` shares: where its operations run, the home model, and the projections the queries
/// read. Reads come from memory; writes go to the hub, and the model has taken them in when the write returns.
final class HomeContext: Sendable {
    /// Where the hub is: this process's engine, or another process's hub.
    let hub: HubConnection
    let model: HomeModel
    let projection = DeviceProjection()
    /// The requests a synchronous call sent without waiting for them (`completeMatterCommissioning()`): they go out
    /// in order, and every later request of this context waits for them.
    private let pendingSends = Mutex<Task<Void, Never>?>(nil)
    /// The add-device sessions this context completed or cancelled: their state may still be on disk until the hub
    /// has closed them, and they are closed all the same.
    private let closedSessions = Mutex<Set<CommissioningSessionState>>([])

    init(hub: HubConnection) {
        self.hub = hub
        model = hub.model
        model.observe { [weak self] snapshot, changes in
            guard let self else { return }
            projection.apply(changes, snapshot: snapshot, context: self)
        }
    }

    /// Carries out `operation` where the hub is: here, or in the hub process.
    func perform<Operation: HubOperation>(
        _ operation: Operation, progress: @escaping @Sendable (HubProgress) -> Void = { _ in }
    ) async throws(HomeError) -> Operation.Reply {
        await settled()
        return try await hub.perform(operation, progress: progress)
    }

    /// Returns once the hub has carried out every request sent without waiting so far.
    func settled() async {
        await sentWithoutWaiting?.value
    }

    /// The last request sent without waiting, still under way or done.
    var sentWithoutWaiting: Task<Void, Never>? { pendingSends.withLock { $0 } }

    /// The open add-device session as the hub last wrote it, unless this context closed it already.
    func openCommissioningSession() throws(HomeError) -> CommissioningSessionState? {
        guard let session = try CommissioningSessionState.read(stateDirectory: hub.stateDirectory) else { return nil }
        return closedSessions.withLock { $0.contains(session) } ? nil : session
    }

    /// This context closes `session` (completes or cancels it): it is no longer open to this context's calls.
    func closing(_ session: CommissioningSessionState?) {
        guard let session else { return }
        closedSessions.withLock { _ = $0.insert(session) }
    }

    /// Sends `operation` for a synchronous call, after those sent before it, and returns at once. What the hub
    /// answers is not waited for: a refusal goes to standard error, as nothing is left to throw it to.
    func send(withoutWaiting operation: some HubOperation) {
        pendingSends.withLock { previous in
            previous = Task { [hub, previous] in
                await previous?.value
                do {
                    _ = try await hub.perform(operation)
                } catch {
                    FileHandle.standardError.write(Data("HomeAPI: \(operation.summary): \(error)\n".utf8))
                }
            }
        }
    }

    /// The `Home` was let go of: the projections stop keeping devices (each holds this context).
    func close() {
        projection.close()
    }

    /// A query over the whole home: re-read after each change to the home's shape (not attribute values).
    func query<Element>(_ read: @escaping @Sendable (HomeContext) throws(HomeError) -> Set<Element>) -> Query<Element> {
        Query(model: model, scope: .home) { () throws(HomeError) in
            try self.requireCurrentModel()
            return try read(self)
        }
    }

    /// Starts following the node live, wherever the hub is, and returns once it had its first contact (or at once,
    /// its stored cache in the model, when not `untilFirstContact`). A node that cannot be reached is followed all the
    /// same (it shows offline), so there is nothing to report.
    func follow(_ nodeID: UInt64, untilFirstContact: Bool = true) async {
        _ = try? await perform(FollowNode(nodeID: nodeID, untilFirstContact: untilFirstContact))
    }

    /// Refuses to answer from a model that could not take in the store's last change: the store holds something this
    /// build cannot read, and an answer from memory would hide it.
    func requireCurrentModel() throws(HomeError) {
        if let failure = model.failure { throw HomeError(failure) }
        if let failure = model.mirroredFailure { throw HomeError(.dataLoss, failure) }
        if let lost = model.sourceLost { throw HomeError(.unavailable, lost) }
    }
}
