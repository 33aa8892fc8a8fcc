import Dispatch
import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterPlatform
import Synchronization

/// Serves a home this process is the hub of on its local socket (`HubProtocol`): each client gets the model, then
/// every change, and has its requests carried out here exactly as this process's own `Home` has. A client that
/// breaks the protocol (a frame over the limit, one that does not decode, a request before its hello, another
/// version) is told why and disconnected; the others are served on.
public final class HubService: Sendable {
    private struct Client {
        let connection: StreamConnection
        var decoder = FrameDecoder(limit: HubProtocol.clientMessageLimit)
        /// Set once welcomed: from then on it receives the model's changes.
        var welcomed = false
    }

    private struct State {
        var clients: [ObjectIdentifier: Client] = [:]
        var listener: UnixStreamListener?
    }

    private let engine: HubEngine
    private let state = Mutex(State())
    /// One line per client event (connected, refused, gone) and request: what `home serve --log-level debug` prints.
    public let activity: AsyncStream<String>
    private let say: AsyncStream<String>.Continuation
    /// Encodes and queues what goes out, in order: a batch of changes always leaves before the reply of the request
    /// that caused it, and encoding never holds the model's lock.
    private let outgoing = DispatchQueue(label: "swift-home.hub-service.outgoing")

    /// Starts serving `engine`'s hub on `hub.socket` in its state directory: owner-only, or readable and writable by
    /// `group` as well. The caller holds the state directory's serving lock.
    init(engine: HubEngine, group: gid_t? = nil) throws(HomeError) {
        self.engine = engine
        (activity, say) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let path = (engine.hub.directory.path as NSString).appendingPathComponent(HubProtocol.socketName)
        engine.clients.count { [weak self] in self?.clientCount ?? 0 }
        engine.model.observe { [weak self] snapshot, changes in
            self?.broadcast(changes, snapshot: snapshot)
        }
        let listener: UnixStreamListener
        do {
            listener = try UnixStreamListener(path: path, mode: group == nil ? 0o600 : 0o660, group: group) {
                [weak self] connection in
                self?.accept(connection)
            }
        } catch {
            throw HomeError(.unavailable, "cannot serve the hub's socket: \(error)")
        }
        state.withLock { $0.listener = listener }
    }

    /// The socket clients connect to.
    var socketPath: String {
        (engine.hub.directory.path as NSString).appendingPathComponent(HubProtocol.socketName)
    }

    var clientCount: Int { state.withLock { $0.clients.count } }

    /// Stops accepting and disconnects every client (their calls then fail `unavailable`).
    public func stop() {
        let (listener, clients) = state.withLock { state in
            defer { state = State() }
            return (state.listener, state.clients.values.map(\.connection))
        }
        listener?.close()
        for connection in clients { connection.close() }
        say.finish()
    }

    private func accept(_ connection: StreamConnection) {
        let id = ObjectIdentifier(connection)
        let who = Self.describe(connection.peer)
        state.withLock { $0.clients[id] = Client(connection: connection) }
        say.yield("client \(who) connected")
        connection.start(
            received: { [weak self] bytes in self?.received(bytes, from: id) },
            closed: { [weak self] in
                guard let self, state.withLock({ $0.clients.removeValue(forKey: id) }) != nil else { return }
                say.yield("client \(who) disconnected")
            })
    }

    private static func describe(_ peer: StreamConnection.Peer?) -> String {
        peer.map { "PID \($0.pid) (user \($0.uid))" } ?? "of unknown process"
    }

    private func received(_ bytes: [UInt8], from id: ObjectIdentifier) {
        typealias Decoded = Result<(StreamConnection, [[UInt8]], Bool), FrameError>
        let decoded = state.withLock { state -> Decoded? in
            guard var client = state.clients[id] else { return nil }
            do throws(FrameError) {
                let frames = try client.decoder.append(bytes)
                state.clients[id] = client
                return .success((client.connection, frames, client.welcomed))
            } catch {
                return .failure(error)
            }
        }
        guard let decoded else { return }
        switch decoded {
        case .failure(let error):
            refuse(id, "\(error)")
        case .success(let (connection, frames, welcomed)):
            var welcomed = welcomed
            for frame in frames {
                let message: HubProtocol.ClientMessage
                do {
                    message = try HubProtocol.decode(HubProtocol.ClientMessage.self, from: frame)
                } catch {
                    refuse(id, "\(error)")
                    return
                }
                switch message {
                case .hello(let version):
                    guard !welcomed else { return refuse(id, "a second hello") }
                    guard version == HubProtocol.version else {
                        return refuse(
                            id, "this hub speaks protocol version \(HubProtocol.version), the client \(version)")
                    }
                    welcome(id, connection)
                    welcomed = true
                case .request(let number, let operation, let arguments):
                    guard welcomed else { return refuse(id, "a request before the hello") }
                    let request: Result<HubOperations.Request, HomeError>
                    do throws(HomeError) {
                        request = .success(try HubOperations.request(operation, arguments: arguments))
                    } catch {
                        request = .failure(error)
                    }
                    // An operation this hub does not have is named as the client sent it, cut short.
                    let summary = (try? request.get())?.summary ?? String(operation.prefix(64))
                    say.yield("client \(Self.describe(connection.peer)): \(summary)")
                    Task { await self.answer(request, number: number, on: connection) }
                }
            }
        }
    }

    /// Sends the model as it is now and starts the client's changes from exactly there: both under the model's lock,
    /// so no batch is missed or sent twice.
    private func welcome(_ id: ObjectIdentifier, _ connection: StreamConnection) {
        let status = engine.status()
        let model = engine.model
        model.withSnapshotAndFailure { snapshot, failure in
            state.withLock { $0.clients[id]?.welcomed = true }
            // Read under the same lock: a failure set or cleared later comes as a change.
            let failure = failure?.description
            outgoing.async {
                connection.send(
                    HubProtocol.encode(
                        HubProtocol.HubMessage.welcome(
                            version: HubProtocol.version, status: status, snapshot: snapshot, failure: failure)))
            }
        }
    }

    /// Under the model's lock (its observer): the recipients are the clients welcomed by now; with none, nothing is
    /// built.
    private func broadcast(_ changes: [HomeModel.Change], snapshot: HomeModel.Snapshot) {
        let recipients = state.withLock { $0.clients.values.filter(\.welcomed).map(\.connection) }
        guard !recipients.isEmpty else { return }
        let batch = HomeModel.MirroredChanges(changes, snapshot: snapshot)
        outgoing.async {
            let frame = HubProtocol.encode(HubProtocol.HubMessage.changes(batch))
            for connection in recipients { connection.send(frame) }
        }
    }

    private func answer(
        _ request: Result<HubOperations.Request, HomeError>, number: UInt64, on connection: StreamConnection
    ) async {
        let message: HubProtocol.HubMessage
        do throws(HomeError) {
            // Who asks is what the kernel says of the connection, never what the client claims.
            let peer = connection.peer
            let caller = HubCaller(
                uid: peer?.uid ?? UInt32.max, process: peer.flatMap { ProcessIdentity.running(pid: $0.pid) })
            let outgoing = outgoing
            message = .reply(
                id: number,
                try await request.get().run(engine, caller) { line in
                    outgoing.async {
                        connection.send(HubProtocol.encode(HubProtocol.HubMessage.progress(id: number, line)))
                    }
                })
        } catch {
            message = .failure(id: number, code: error.code, message: error.message)
        }
        outgoing.async { connection.send(HubProtocol.encode(message)) }
    }

    private func refuse(_ id: ObjectIdentifier, _ reason: String) {
        guard let client = state.withLock({ $0.clients.removeValue(forKey: id) }) else { return }
        say.yield("client \(Self.describe(client.connection.peer)) refused: \(reason)")
        outgoing.async {
            client.connection.send(HubProtocol.encode(HubProtocol.HubMessage.refused(reason: reason)))
            // Closed once the refusal is written: the connection's writes are in order, and its close waits for none.
            client.connection.closeAfterWrites()
        }
    }
}
