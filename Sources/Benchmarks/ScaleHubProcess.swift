import Foundation
import HomeAPI
import MatterDiscovery
import MatterPlatform
import MatterServer

/// The scale benchmark's cold start, in a fresh process (`swift-home-bench scale-hub STATE NODES`): this binary opens
/// the hub on the state the benchmark commissioned, follows every node until all are online, and serves the
/// Matter-server API to time one `start_listening`. A fresh process, so the memory per node is what a hub that
/// started on its store holds, with nothing left over from commissioning in its heap. It prints one JSON object of
/// figures and exits; with `--marginal`, a second process prints what each node live adds.
enum ScaleHubProcess {
    struct Figures: Codable {
        var coldStartAllOnlineSeconds: Double
        var residentBytes: Int
        var baselineBytes: Int
        /// After the home was opened (its store read, its model built), before any node was reached.
        var openedBytes: Int
        var startListeningMilliseconds: Double
        /// What each node live adds to the hub, from a second fresh process that follows half the nodes, then all:
        /// the difference over the other half, without the process's fixed costs (code paged in, threads, caches of
        /// the store) that a figure over the bare process spreads over the nodes.
        var marginalBytesPerNode = 0
        /// A hub with no node, opened the same way in a third fresh process: its fixed costs (code paged in, threads,
        /// the store), the baseline of the figure per node. Its Matter transport, opened for the first node, is not
        /// in it, so the figure per node errs high.
        var emptyHubResidentBytes = 0
        var emptyHubOpenedBytes = 0
    }

    /// The child's side of the marginal figure: follows the first half of the devices, then every node.
    static func measureMarginal(statePath: String, nodes: Int) async throws -> Int {
        var configuration = Home.Configuration(stateDirectory: statePath)
        configuration.liveness = .seconds(60)
        let home = try await Home.connect(configuration)
        let half = nodes / 2
        let devices = try await home.devices().list().prefix(half)
        await withTaskGroup(of: Void.self) { group in
            for device in devices { group.addTask { _ = await device.liveTrait(OnOffTrait.self) } }
        }
        try await home.hub.model.waitUntil(half, are: .online, within: .seconds(300), after: "following half the nodes")
        let halfResident = residentBytes()
        try await home.hub.followEveryNode()
        try await home.hub.model.waitUntil(nodes, are: .online, within: .seconds(300), after: "following every node")
        let allResident = residentBytes()
        await home.close()
        return (allResident - halfResident) / max(1, nodes - half)
    }

    /// The child's side.
    static func run(statePath: String, nodes: Int) async throws -> Figures {
        let baseline = residentBytes()
        let clock = ContinuousClock()
        let started = clock.now
        var configuration = Home.Configuration(stateDirectory: statePath)
        configuration.liveness = .seconds(60)
        let home = try await Home.connect(configuration)
        _ = try await home.devices().list()
        let opened = residentBytes()
        try await home.hub.followEveryNode()
        try await home.hub.model.waitUntil(nodes, are: .online, within: .seconds(300), after: "the hub's start")
        let coldStart = clock.now - started
        let resident = residentBytes()

        guard let engine = home.hub.engine else { throw BenchmarkError("another process serves the benchmark's home") }
        let api = try MatterServerAPI(
            engine: engine, listeningOn: [.ipv4(IPv4Address(127 << 24 | 1), port: 0)], token: nil)
        guard case .ipv4(_, let port)? = api.addresses.first else { throw BenchmarkError("the API has no address") }
        let listening = try await WebSocketProbe.startListening(port: port)
        api.stop()
        await home.close()
        return Figures(
            coldStartAllOnlineSeconds: coldStart.seconds, residentBytes: resident, baselineBytes: baseline,
            openedBytes: opened,
            startListeningMilliseconds: listening.microseconds / 1000)
    }

    /// The parent's side: runs the child on `statePath` and reads its figures, then on an empty home in
    /// `emptyStatePath` for the baseline.
    static func measure(statePath: String, nodes: Int, emptyStatePath: String) async throws -> Figures {
        var figures = try JSONDecoder().decode(Figures.self, from: try await child([statePath, "\(nodes)"]))
        let empty = try JSONDecoder().decode(Figures.self, from: try await child([emptyStatePath, "0"]))
        figures.emptyHubResidentBytes = empty.residentBytes
        figures.emptyHubOpenedBytes = empty.openedBytes
        let marginal = try await child([statePath, "\(nodes)", "--marginal"])
        guard let bytes = Int(String(decoding: marginal, as: UTF8.self)) else {
            throw BenchmarkError("the marginal-memory hub printed no figure")
        }
        figures.marginalBytesPerNode = bytes
        return figures
    }

    private static func child(_ arguments: [String]) async throws -> Data {
        let process = try Lifeline.start(["scale-hub"] + arguments)
        let data = await ChildProcess.readToEnd(process.output!)
        let termination = await process.termination()
        guard termination == .exited(0) else {
            throw BenchmarkError("the fresh hub process failed: it \(termination)")
        }
        return data
    }
}

/// A Home Assistant's first request, timed: the WebSocket handshake and server_info, then `start_listening` sent and
/// its whole answer (every node) read. Blocking socket calls, on a thread of their own.
enum WebSocketProbe {
    static func startListening(port: UInt16) async throws -> Duration {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try timeStartListening(port: port) })
            }
        }
    }

    private static func timeStartListening(port: UInt16) throws -> Duration {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("no socket") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(127 << 24 | 1).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchmarkError("cannot connect to the API on port \(port)") }
        var reader = FrameReader(descriptor: descriptor)
        send(
            descriptor,
            Array(
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                    .utf8))
        try reader.skipHead()
        _ = try reader.text()  // server_info, sent unprompted
        let started = ContinuousClock.now
        send(descriptor, maskedText(#"{"message_id": "listen", "command": "start_listening"}"#))
        while true {
            let text = try reader.text()
            if text.hasPrefix(#"{"message_id": "listen""#) { return ContinuousClock.now - started }
        }
    }

    private static func send(_ descriptor: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// A client's text frame (RFC 6455 §5.2: masked; the payload here is short).
    private static func maskedText(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8), mask: [UInt8] = [1, 2, 3, 4]
        return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $1 ^ mask[$0 & 3] }
    }

    private struct FrameReader {
        let descriptor: Int32
        var buffer: [UInt8] = []

        mutating func fill(_ count: Int) throws {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while buffer.count < count {
                let read = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard read > 0 else { throw BenchmarkError("the API closed or went quiet") }
                buffer += chunk[0..<read]
            }
        }

        mutating func skipHead() throws {
            while true {
                if let end = (0..<max(0, buffer.count - 3)).first(where: { buffer[$0..<$0 + 4] == [13, 10, 13, 10] }) {
                    buffer.removeFirst(end + 4)
                    return
                }
                try fill(buffer.count + 1)
            }
        }

        /// One unfragmented server frame (our server sends no others), as text.
        mutating func text() throws -> String {
            try fill(2)
            var length = Int(buffer[1] & 0x7F), header = 2
            if length == 126 {
                try fill(4)
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                header = 4
            } else if length == 127 {
                try fill(10)
                length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
                header = 10
            }
            try fill(header + length)
            defer { buffer.removeFirst(header + length) }
            return String(decoding: buffer[header..<(header + length)], as: UTF8.self)
        }
    }
}
