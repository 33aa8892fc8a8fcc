import Dispatch
import Foundation
import HTTPWebSocket
import MatterCrypto
import MatterDiscovery
import MatterPlatform
import Synchronization

/// Where a proxy client connects: the hub's `/ble` (`ws://HOST:PORT/ble`), with the token when the hub asks for one.
public struct BLEProxyEndpoint: Sendable, Hashable, CustomStringConvertible {
    public let address: SocketAddress
    /// As it goes in the request's Host field.
    public let host: String
    /// The path with its query.
    public let target: String

    /// Reads `ws://HOST:PORT/PATH`: a numeric address (IPv6 in brackets) or localhost; the port defaults to the
    /// Matter-server API's 5580.
    public init(_ url: String) throws(BLEProxyEndpointError) {
        guard url.hasPrefix("ws://") else {
            throw BLEProxyEndpointError("\(url) is not a ws:// URL (wss is not spoken)")
        }
        let rest = url.dropFirst("ws://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let path = rest.dropFirst(authority.count)
        var hostText = String(authority), port: UInt16 = 5580
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw BLEProxyEndpointError("\(url): no closing ]") }
            hostText = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let given = UInt16(after.dropFirst()) else { throw BLEProxyEndpointError("\(url): bad port") }
                port = given
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostText = String(authority[..<colon])
            guard let given = UInt16(authority[authority.index(after: colon)...]) else {
                throw BLEProxyEndpointError("\(url): bad port")
            }
            port = given
        }
        if hostText == "localhost" { hostText = "127.0.0.1" }
        if let ipv4 = IPv4Address(hostText) {
            address = .ipv4(ipv4, port: port)
        } else if let ipv6 = IPv6Address(hostText) {
            address = .ipv6(ipv6, port: port)
        } else {
            throw BLEProxyEndpointError("\(url): the host must be a numeric address or localhost")
        }
        host = String(authority)
        target = path.isEmpty ? "/ble" : String(path)
    }

    public var description: String { "ws://\(host)\(target)" }
}

public struct BLEProxyEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A proxy client's connection to the hub, on the runtime: TCP, the WebSocket's opening handshake, then the
/// peripheral's frames both ways. When the hub is not there, or goes away, it tries again every
/// `BLEProxyTiming.redial` until cancelled.
public enum BLEProxyDial {
    /// Keeps `peripheral` connected to `endpoint` until the task is cancelled; `log` hears each connection and loss.
    public static func keepConnected(
        _ endpoint: BLEProxyEndpoint, token: String?,
        peripheral makePeripheral:
            @escaping @Sendable (@escaping @Sendable (BLEProxyFrame) -> Void) async -> BLEProxyPeripheral,
        log: @escaping @Sendable (String) -> Void
    ) async {
        var lastFailure = ""
        while !Task.isCancelled {
            do {
                try await connectOnce(endpoint, token: token, makePeripheral: makePeripheral, log: log)
                lastFailure = ""
                log("[ble] the hub at \(endpoint) closed the proxy connection")
            } catch {
                // Said once while it lasts, not at every try.
                if "\(error)" != lastFailure {
                    log("[ble] cannot reach the hub at \(endpoint): \(error); trying again")
                }
                lastFailure = "\(error)"
            }
            try? await Task.sleep(for: BLEProxyTiming.redial)
        }
    }

    private struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One connection, until it closes.
    private static func connectOnce(
        _ endpoint: BLEProxyEndpoint, token: String?,
        makePeripheral: @escaping @Sendable (@escaping @Sendable (BLEProxyFrame) -> Void) async -> BLEProxyPeripheral,
        log: @escaping @Sendable (String) -> Void
    ) async throws {
        let connection: StreamConnection = try await withCheckedThrowingContinuation { continuation in
            // connect(2) blocks until the hub answers or refuses: on a thread of its own, not the cooperative pool's
            // (nor a Dispatch global queue's, which on Linux are the pool's).
            Thread.detachNewThread {
                continuation.resume(
                    with: Result { () throws(SocketError) in try StreamConnection.connect(to: endpoint.address) })
            }
        }
        let handshake = WebSocketClientHandshake(random: SystemRandom())
        let socket = ClientSocket(handshake: handshake)
        let (incoming, deliver) = AsyncStream<BLEProxyFrame>.makeStream()
        let (events, event) = AsyncStream<DialEvent>.makeStream()
        let peripheral = await makePeripheral { frame in
            for bytes in socket.send(frame) { connection.send(bytes) }
        }
        connection.start(
            received: { bytes in
                let (writes, frames, answer, close) = socket.received(bytes)
                for bytes in writes { connection.send(bytes) }
                if let answer { event.yield(answer) }
                for frame in frames { deliver.yield(frame) }
                if close { connection.close() }
            },
            closed: {
                deliver.finish()
                event.yield(.closed)
                event.finish()
            })
        var fields: [HTTPField] = []
        if let token { fields.append(HTTPField("Authorization", "Bearer \(token)")) }
        connection.send(handshake.request(host: endpoint.host, path: endpoint.target, fields: fields))
        let pump = Task {
            for await frame in incoming { await peripheral.received(frame) }
        }
        var outcome: DialEvent = .closed
        loop: for await next in events {
            switch next {
            case .opened:
                // The hello goes once the hub accepted the upgrade.
                log("[ble] connected to the hub at \(endpoint) as a BLE proxy")
                await peripheral.start()
            case .refused, .closed:
                outcome = next
                break loop
            }
        }
        connection.close()
        await pump.value
        await peripheral.hubDisconnected()
        if case .refused(let reason) = outcome { throw Failure(description: reason) }
        if !socket.wasOpen { throw Failure(description: "the connection closed before the WebSocket opened") }
    }

    private enum DialEvent {
        case opened
        case refused(String)
        case closed
    }

    /// The client's WebSocket, its opening handshake first.
    private final class ClientSocket: Sendable {
        private enum Phase {
            case awaitingAnswer([UInt8])
            case open(WebSocketConnection)
            case closed
        }

        private let handshake: WebSocketClientHandshake
        private let phase = Mutex(Phase.awaitingAnswer([]))
        private let opened = Mutex(false)

        init(handshake: WebSocketClientHandshake) {
            self.handshake = handshake
        }

        var wasOpen: Bool { opened.withLock { $0 } }

        /// What to write, the frames that came, the upgrade's answer when it came, and whether to close.
        func received(_ bytes: [UInt8]) -> ([[UInt8]], [BLEProxyFrame], DialEvent?, Bool) {
            phase.withLock { phase in
                switch phase {
                case .closed:
                    return ([], [], nil, true)
                case .awaitingAnswer(let buffered):
                    let all = buffered + bytes
                    switch handshake.answer(in: all) {
                    case .incomplete:
                        phase = .awaitingAnswer(all)
                        return ([], [], nil, false)
                    case .refused(let reason):
                        phase = .closed
                        return ([], [], .refused(reason), true)
                    case .accepted(let length):
                        opened.withLock { $0 = true }
                        phase = .open(WebSocketConnection(role: .client(SystemRandom())))
                        let (writes, frames, _, close) = take(Array(all[length...]), &phase)
                        return (writes, frames, .opened, close)
                    }
                case .open:
                    return take(bytes, &phase)
                }
            }
        }

        private func take(_ bytes: [UInt8], _ phase: inout Phase) -> ([[UInt8]], [BLEProxyFrame], DialEvent?, Bool) {
            guard case .open(var webSocket) = phase else { return ([], [], nil, true) }
            var writes: [[UInt8]] = [], frames: [BLEProxyFrame] = [], close = false
            for action in webSocket.receive(bytes) {
                switch action {
                case .write(let bytes): writes.append(bytes)
                case .deliver(.text(let text)): frames.append(.text(text))
                case .deliver(.binary(let bytes)): frames.append(.binary(bytes))
                case .closeConnection: close = true
                }
            }
            phase = webSocket.isClosed ? .closed : .open(webSocket)
            return (writes, frames, nil, close)
        }

        func send(_ frame: BLEProxyFrame) -> [[UInt8]] {
            phase.withLock { phase in
                guard case .open(var webSocket) = phase else { return [] }
                let actions =
                    switch frame {
                    case .text(let text): webSocket.send(text: text)
                    case .binary(let bytes): webSocket.send(binary: bytes)
                    }
                phase = .open(webSocket)
                return actions.compactMap { if case .write(let bytes) = $0 { bytes } else { nil } }
            }
        }
    }
}
