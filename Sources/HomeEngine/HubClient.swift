import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterPlatform
import Synchronization

/// A `Home` whose hub is another process: the connection to that hub's socket, the mirror of its model, and the
/// requests in flight. Once the hub goes away, every request in flight and every later one fails `unavailable`
/// naming it, and live queries fail the same way: a client does not resume on a hub started later (its `Home` is
/// gone with its hub; connect again).
public final class HubClient: Sendable {
    public let model: HomeModel
    /// The hub as it was when this client attached.
    public let status: HubStatus
    public let stateDirectory: String
    private let connection: StreamConnection
    private let receiver: Receiver

    private init(
        model: HomeModel, status: HubStatus, stateDirectory: String, connection: StreamConnection,
        receiver: Receiver
    ) {
        self.model = model
        self.status = status
        self.stateDirectory = stateDirectory
        self.connection = connection
        self.receiver = receiver
    }

    deinit {
        // The last reference may go while the model is locked (a model observer's closure held it); the model hears
        // of the end later, not from inside this deinit.
        receiver.released()
        connection.close()
    }

    /// The hub serving `stateDirectory`, attached to; nil when no hub serves it (no socket, or nobody listening).
    public static func attach(stateDirectory: String) async throws(HomeError) -> HubClient? {
        let path = (stateDirectory as NSString).appendingPathComponent(HubProtocol.socketName)
        let connection: StreamConnection
        do {
            connection = try StreamConnection.connect(path: path)
        } catch {
            if case .system(_, let code) = error, code == EACCES || code == EPERM {
                throw HomeError(.permissionDenied, "permission denied: cannot connect to the hub's socket \(path)")
            }
            // No socket, or a socket file its hub left when it died: no hub serves the directory.
            return nil
        }
        let receiver = Receiver(stateDirectory: stateDirectory)
        connection.start(
            received: { [weak connection] bytes in
                if !receiver.received(bytes) { connection?.close() }
            },
            closed: { receiver.closed() })
        connection.send(HubProtocol.encode(HubProtocol.ClientMessage.hello(version: HubProtocol.version)))
        // A process that holds the socket but never answers (stopped, hung) is not waited on for ever.
        let deadline = Task {
            try? await Task.sleep(for: HubEngineTiming.hubWelcome)
            if !Task.isCancelled { connection.close() }
        }
        defer { deadline.cancel() }
        let (status, model) = try await receiver.welcome()
        return HubClient(
            model: model, status: status, stateDirectory: stateDirectory, connection: connection, receiver: receiver)
    }

    /// Sends `operation` and waits for the hub's answer.
    public func send<Operation: HubOperation>(
        _ operation: Operation, progress: @escaping @Sendable (HubProgress) -> Void = { _ in }
    ) async throws(HomeError) -> Operation.Reply {
        let arguments: UntypedJSON
        do {
            arguments = try UntypedJSON(encoding: operation)
        } catch {
            throw HomeError(.internal, "the arguments of \(Operation.name) do not encode: \(error)")
        }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<UntypedJSON, HomeError>, Never>) in
            guard let id = receiver.expectReply(continuation, progress: progress) else { return }
            connection.send(
                HubProtocol.encode(
                    HubProtocol.ClientMessage.request(id: id, operation: Operation.name, arguments: arguments)))
        }
        do {
            return try result.get().decode(as: Operation.Reply.self)
        } catch let error as HomeError {
            throw error
        } catch {
            throw HomeError(
                .internal,
                "the hub serving \(stateDirectory) answered \(Operation.name) with a reply that does not "
                    + "decode: \(error)")
        }
    }

    /// What reads the hub's messages, on the runtime's loop: the welcome, then replies and the model's changes.
    private final class Receiver: Sendable {
        typealias Greeting = CheckedContinuation<Result<(HubStatus, HomeModel), HomeError>, Never>
        typealias Answer = CheckedContinuation<Result<UntypedJSON, HomeError>, Never>

        private enum Phase {
            case greeting(Greeting?)
            case attached(HomeModel, HubStatus)
            case gone(HomeError)
        }

        private struct State {
            var phase: Phase = .greeting(nil)
            var decoder = FrameDecoder(limit: HubProtocol.hubMessageLimit)
            var nextID: UInt64 = 0
            var pending: [UInt64: Answer] = [:]
            var progress: [UInt64: @Sendable (HubProgress) -> Void] = [:]
        }

        private let state = Mutex(State())
        private let stateDirectory: String

        init(stateDirectory: String) {
            self.stateDirectory = stateDirectory
        }

        func welcome() async throws(HomeError) -> (HubStatus, HomeModel) {
            let result = await withCheckedContinuation { (continuation: Greeting) in
                // The welcome may have come in already.
                let early: Result<(HubStatus, HomeModel), HomeError>? = state.withLock { state in
                    switch state.phase {
                    case .greeting:
                        state.phase = .greeting(continuation)
                        return nil
                    case .gone(let error): return .failure(error)
                    case .attached(let model, let status): return .success((status, model))
                    }
                }
                if let early { continuation.resume(returning: early) }
            }
            return try result.get()
        }

        /// A number for a request about to be sent, its answer to go to `continuation`; nil (the continuation
        /// answered) when the hub is gone.
        func expectReply(_ continuation: Answer, progress: @escaping @Sendable (HubProgress) -> Void) -> UInt64? {
            let outcome: Result<UInt64, HomeError> = state.withLock { state in
                if case .gone(let error) = state.phase { return .failure(error) }
                state.nextID += 1
                state.pending[state.nextID] = continuation
                state.progress[state.nextID] = progress
                return .success(state.nextID)
            }
            switch outcome {
            case .success(let id): return id
            case .failure(let error):
                continuation.resume(returning: .failure(error))
                return nil
            }
        }

        /// False when the bytes break the protocol: the connection is then closed.
        func received(_ bytes: [UInt8]) -> Bool {
            let frames: [[UInt8]]
            do {
                frames = try state.withLock { state throws(FrameError) in try state.decoder.append(bytes) }
            } catch {
                fail(HomeError(.internal, "the hub serving \(stateDirectory) sent \(error)"))
                return false
            }
            for frame in frames {
                let message: HubProtocol.HubMessage
                do {
                    message = try HubProtocol.decode(HubProtocol.HubMessage.self, from: frame)
                } catch {
                    fail(HomeError(.internal, "the hub serving \(stateDirectory) sent \(error)"))
                    return false
                }
                handle(message)
            }
            return true
        }

        private func handle(_ message: HubProtocol.HubMessage) {
            switch message {
            case .welcome(let version, let status, let snapshot, let failure):
                guard version == HubProtocol.version else {
                    fail(versionMismatch(hub: version))
                    return
                }
                let model = HomeModel(mirroring: snapshot, failure: failure)
                let greeting = state.withLock { state -> Greeting? in
                    guard case .greeting(let continuation) = state.phase else { return nil }
                    state.phase = .attached(model, status)
                    return continuation
                }
                greeting?.resume(returning: .success((status, model)))
            case .refused(let reason):
                fail(HomeError(.failedPrecondition, "the hub serving \(stateDirectory) refused this client: \(reason)"))
            case .reply(let id, let reply):
                answer(id)?.resume(returning: .success(reply))
            case .failure(let id, let code, let text):
                answer(id)?.resume(returning: .failure(HomeError(code, text)))
            case .progress(let id, let line):
                state.withLock { $0.progress[id] }?(line)
            case .changes(let batch):
                if case .attached(let model, _) = state.withLock({ $0.phase }) { model.applyMirrored(batch) }
            }
        }

        private func answer(_ id: UInt64) -> Answer? {
            state.withLock { state in
                state.progress[id] = nil
                return state.pending.removeValue(forKey: id)
            }
        }

        private func versionMismatch(hub: Int) -> HomeError {
            HomeError(
                .failedPrecondition,
                "the hub serving \(stateDirectory) speaks protocol version \(hub), this client \(HubProtocol.version)")
        }

        func closed() {
            let pid: Int32? = state.withLock { state in
                if case .attached(_, let status) = state.phase { return status.pid }
                return nil
            }
            let who = pid.map { "the hub serving \(stateDirectory) (PID \($0))" } ?? "the hub serving \(stateDirectory)"
            fail(HomeError(.unavailable, "\(who) went away"))
        }

        /// The client was let go: everything ends as if the hub went away, and the model is told from a task of its
        /// own, never from the deinit that may run under the model's lock.
        func released() {
            fail(
                HomeError(.unavailable, "the connection to the hub serving \(stateDirectory) was closed"),
                modelLater: true)
        }

        /// Ends everything waiting with `error`, once: the first failure is the one reported.
        private func fail(_ error: HomeError, modelLater: Bool = false) {
            let (greeting, pending, model) = state.withLock { state -> (Greeting?, [Answer], HomeModel?) in
                let previous = state.phase
                if case .gone = previous { return (nil, [], nil) }
                state.phase = .gone(error)
                let pending = Array(state.pending.values)
                state.pending = [:]
                state.progress = [:]
                switch previous {
                case .greeting(let continuation): return (continuation, pending, nil)
                case .attached(let model, _): return (nil, pending, model)
                case .gone: return (nil, [], nil)
                }
            }
            greeting?.resume(returning: .failure(error))
            for continuation in pending { continuation.resume(returning: .failure(error)) }
            guard let model else { return }
            if modelLater {
                Task { model.sourceWentAway(error.message) }
            } else {
                model.sourceWentAway(error.message)
            }
        }
    }
}
