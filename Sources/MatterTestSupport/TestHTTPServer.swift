import Foundation
import MatterDiscovery
import MatterPlatform
import Synchronization

/// A web server on loopback for tests of what fetches over HTTP (a ledger node, a firmware CDN): each request's path
/// is answered with the raw bytes `respond` gives (status line, fields and body as the test writes them, so it can
/// send what a real server would and what a broken one would), then the connection closes. Nothing is answered
/// until the request's head is whole.
public final class TestHTTPServer: Sendable {
    private let listener: TCPListener
    private let requests = RequestLog()

    private final class RequestLog: Sendable {
        let paths = Mutex<[String]>([])
    }

    public var port: UInt16 { listener.address.port }
    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }
    /// The paths asked, in order.
    public var paths: [String] { requests.paths.withLock { $0 } }

    /// A request as it came: its method, its target (path and query), its fields (names lowercased) and its body
    /// (by its Content-Length).
    public struct Request: Sendable {
        public let method: String
        public let path: String
        public let fields: [String: String]
        public let body: [UInt8]
    }

    /// `respond` gets the request's path (with its query); nil closes the connection without a word.
    public convenience init(respond: @escaping @Sendable (String) -> [UInt8]?) throws {
        try self.init(handle: { respond($0.path) })
    }

    /// `handle` gets the whole request; nil closes the connection without a word.
    public init(handle: @escaping @Sendable (Request) -> [UInt8]?) throws {
        let requests = requests
        listener = try TCPListener(address: .ipv4(IPv4Address(127 << 24 | 1), port: 0)) { connection in
            let buffer = Mutex<[UInt8]>([])
            connection.start(
                received: { bytes in
                    // Not a request line (a TLS ClientHello begins 0x16): refused at once, as a plain server does.
                    if let first = bytes.first, buffer.withLock({ $0.isEmpty }), !(65...90).contains(first) {
                        connection.send(Self.answer(400, Array("not HTTP".utf8)))
                        return connection.closeAfterWrites()
                    }
                    let request = buffer.withLock { buffer -> Request? in
                        buffer += bytes
                        guard let request = Self.request(in: buffer) else { return nil }
                        buffer = []
                        return request
                    }
                    guard let request else { return }
                    requests.paths.withLock { $0.append(request.path) }
                    if let answer = handle(request) { connection.send(answer) }
                    connection.closeAfterWrites()
                }, closed: {})
        }
    }

    /// The request in `bytes` once its head and body are whole.
    private static func request(in bytes: [UInt8]) -> Request? {
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4] == [13, 10, 13, 10] })
        else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let line = lines.first?.split(separator: " ") ?? []
        var fields: [String: String] = [:]
        for field in lines.dropFirst() {
            guard let colon = field.firstIndex(of: ":") else { continue }
            fields[field[..<colon].lowercased()] = field[field.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = fields["content-length"].flatMap(Int.init) ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        return Request(
            method: line.first.map(String.init) ?? "", path: line.count > 1 ? String(line[1]) : "", fields: fields,
            body: Array(bytes[(end + 4)..<(end + 4 + length)]))
    }

    deinit { listener.close() }

    /// A plain answer: `status`, a Content-Length, the body.
    public static func answer(_ status: Int, _ body: [UInt8], fields: [String] = []) -> [UInt8] {
        let head = (["HTTP/1.1 \(status) Status", "Content-Length: \(body.count)"] + fields).joined(separator: "\r\n")
        return Array((head + "\r\n\r\n").utf8) + body
    }
}
