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

    /// `respond` gets the request's path (with its query); nil closes the connection without a word.
    public init(respond: @escaping @Sendable (String) -> [UInt8]?) throws {
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
                    let head = buffer.withLock { buffer -> [UInt8]? in
                        buffer += bytes
                        guard
                            let end = (0..<max(0, buffer.count - 3)).first(where: {
                                buffer[$0..<$0 + 4] == [13, 10, 13, 10]
                            })
                        else { return nil }
                        defer { buffer = [] }
                        return Array(buffer[..<end])
                    }
                    guard let head else { return }
                    let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
                    let path = line.count > 1 ? String(line[1]) : ""
                    requests.paths.withLock { $0.append(path) }
                    if let answer = respond(path) { connection.send(answer) }
                    connection.closeAfterWrites()
                }, closed: {})
        }
    }

    deinit { listener.close() }

    /// A plain answer: `status`, a Content-Length, the body.
    public static func answer(_ status: Int, _ body: [UInt8], fields: [String] = []) -> [UInt8] {
        let head = (["HTTP/1.1 \(status) Status", "Content-Length: \(body.count)"] + fields).joined(separator: "\r\n")
        return Array((head + "\r\n\r\n").utf8) + body
    }
}
