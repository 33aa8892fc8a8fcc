import CTLS
import Foundation
import Glibc
import HTTPWebSocket

/// HTTP(S) as the hub needs it: GETs for the DCL's records and the firmware images they name, GETs and POSTs for a
/// Thread border router's REST API. HTTP/1.1 over TCP, TLS 1.2 or later with the peer's certificate checked against
/// the system's trust store (or a given one) and its name against the host, a GET's redirects followed a few times
/// (never from https to http; a POST's are the caller's), a body no larger than asked, every step bounded in time.
/// Blocking I/O, on a thread of its own: a request never holds the cooperative pool.
public enum HTTPClient {
    public struct Response: Sendable, Hashable {
        public let status: Int
        public let body: [UInt8]
        /// Where the body came from, after redirects.
        public let url: String
    }

    /// The client's limits, each with its reason.
    public enum Limits {
        /// Redirects followed: a CDN sends one or two; more is a loop.
        public static let redirects = 5
        /// How long a connection, a TLS handshake or any one read or write may take: a slow link's pause, not a
        /// dead server's.
        public static let silence: Duration = .seconds(30)
    }

    /// What a request sends beyond its URL.
    struct Message {
        var method = "GET"
        var accept = "*/*"
        var followingRedirects = true
        var body: (contentType: String, bytes: [UInt8])?
    }

    /// GETs `url` (http or https), answering its status and body; the body may be at most `limit` bytes.
    /// `trustStore`: a PEM file of the certificates trusted instead of the system's. `accept`: the Accept field.
    /// `followingRedirects` false: a redirect is answered as it came.
    public static func get(
        _ url: String, limit: Int, accept: String = "*/*", followingRedirects: Bool = true, trustStore: String? = nil,
        silence: Duration = Limits.silence
    ) async throws(HTTPClientError) -> Response {
        let message = Message(accept: accept, followingRedirects: followingRedirects)
        return try await onThread(url, message, limit: limit, trustStore: trustStore, silence: silence)
    }

    /// POSTs `body` (of `contentType`) to `url`, answering the status and body as `get` does; a redirect is answered,
    /// not followed (whether to send the body again is the caller's to judge).
    public static func post(
        _ url: String, body: [UInt8], contentType: String, limit: Int, accept: String = "*/*",
        trustStore: String? = nil, silence: Duration = Limits.silence
    ) async throws(HTTPClientError) -> Response {
        let message = Message(method: "POST", accept: accept, followingRedirects: false, body: (contentType, body))
        return try await onThread(url, message, limit: limit, trustStore: trustStore, silence: silence)
    }

    private static func onThread(
        _ url: String, _ message: Message, limit: Int, trustStore: String?, silence: Duration
    ) async throws(HTTPClientError) -> Response {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Response, HTTPClientError>, Never>) in
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result { () throws(HTTPClientError) in
                        try fetch(url, message, limit: limit, trustStore: trustStore, silence: silence)
                    })
            }
        }
        return try result.get()
    }

    private static func fetch(
        _ url: String, _ message: Message, limit: Int, trustStore: String?, silence: Duration
    ) throws(HTTPClientError) -> Response {
        var current = try Target(url)
        for _ in 0...Limits.redirects {
            let connection = try Connection(to: current, trustStore: trustStore, silence: silence)
            try connection.write(current.request(message))
            var reader = HTTPResponseReader()
            var head: HTTPResponseReader.Head?
            var body: [UInt8] = []
            var ended = false
            while !ended {
                let bytes = try connection.read()
                let events: [HTTPResponseReader.Event]
                do throws(HTTPError) {
                    events = bytes.isEmpty ? try reader.closed() : try reader.receive(bytes)
                } catch {
                    throw HTTPClientError(current.url, error.reason)
                }
                for event in events {
                    switch event {
                    case .head(let received): head = received
                    case .body(let part):
                        body += part
                        guard body.count <= limit else {
                            throw HTTPClientError(current.url, "the body is larger than the \(limit) bytes expected")
                        }
                    case .end: ended = true
                    }
                }
            }
            guard let head else { throw HTTPClientError(current.url, "no response") }
            guard message.followingRedirects, [301, 302, 303, 307, 308].contains(head.status) else {
                return Response(status: head.status, body: body, url: current.url)
            }
            guard let location = head.field("location") else {
                throw HTTPClientError(current.url, "a redirect (\(head.status)) without a Location")
            }
            let next = try Target(location, relativeTo: current)
            if current.isTLS, !next.isTLS {
                throw HTTPClientError(current.url, "redirected from https to http (\(next.url)): refused")
            }
            current = next
        }
        throw HTTPClientError(url, "more than \(Limits.redirects) redirects")
    }
}

/// A fetch that failed: the URL and what went wrong, in words.
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public let url: String
    public let reason: String

    public init(_ url: String, _ reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { "\(url): \(reason)" }
}

/// Where a request goes: scheme, host, port, and the target it asks for.
private struct Target {
    let url: String
    let isTLS: Bool
    let host: String
    let port: UInt16
    let pathAndQuery: String

    init(_ text: String, relativeTo base: Target? = nil) throws(HTTPClientError) {
        let parsed =
            base.flatMap { URL(string: $0.url) }.flatMap { URL(string: text, relativeTo: $0) }
            ?? URL(string: text)
        guard let url = parsed?.absoluteURL, let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            throw HTTPClientError(text, "not an http or https URL")
        }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw HTTPClientError(text, "no host in the URL")
        }
        guard url.user == nil else { throw HTTPClientError(text, "a URL with credentials in it is refused") }
        self.url = url.absoluteString
        isTLS = scheme == "https"
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard let port = UInt16(exactly: url.port ?? (isTLS ? 443 : 80)) else {
            throw HTTPClientError(text, "the port is out of range")
        }
        self.port = port
        let path = url.path(percentEncoded: true)
        pathAndQuery = (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
    }

    func request(_ message: HTTPClient.Message) -> [UInt8] {
        let defaultPort: UInt16 = isTLS ? 443 : 80
        let hostField = (host.contains(":") ? "[\(host)]" : host) + (port == defaultPort ? "" : ":\(port)")
        var head =
            "\(message.method) \(pathAndQuery) HTTP/1.1\r\nHost: \(hostField)\r\nUser-Agent: swift-home\r\n"
            + "Accept: \(message.accept)\r\nConnection: close\r\n"
        if let body = message.body {
            head += "Content-Type: \(body.contentType)\r\nContent-Length: \(body.bytes.count)\r\n"
        }
        return Array((head + "\r\n").utf8) + (message.body?.bytes ?? [])
    }

    /// Whether the host is an address, not a name (no SNI then, and the certificate is checked for the address).
    var hostIsAddress: Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

/// One blocking connection, TLS or not, closed when it goes.
private final class Connection {
    private let descriptor: Int32
    private var context: OpaquePointer?
    private var tls: OpaquePointer?
    private let url: String

    init(to target: Target, trustStore: String?, silence: Duration) throws(HTTPClientError) {
        url = target.url
        descriptor = try Self.connect(target, silence: silence)
        guard target.isTLS else { return }
        do throws(HTTPClientError) {
            try startTLS(target, trustStore: trustStore)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func close() {
        if let tls { SSL_free(tls) }
        if let context { SSL_CTX_free(context) }
        tls = nil
        context = nil
        Glibc.close(descriptor)
    }

    private static func connect(_ target: Target, silence: Duration) throws(HTTPClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPClientError(target.url, "cannot resolve \(target.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(
                address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                address.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            var timeout = timeval(
                tv_sec: Int(silence.components.seconds),
                tv_usec: Int(silence.components.attoseconds / 1_000_000_000_000))
            // connect, send and recv all give up after the silence (SO_SNDTIMEO bounds a blocking connect on Linux).
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                return descriptor
            }
            reason = errno == EINPROGRESS || errno == EAGAIN ? "timed out" : String(cString: strerror(errno))
            Glibc.close(descriptor)
        }
        throw HTTPClientError(target.url, "cannot connect to \(target.host) port \(target.port): \(reason)")
    }

    private func startTLS(_ target: Target, trustStore: String?) throws(HTTPClientError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw failure("cannot make a TLS context") }
        self.context = context
        guard swift_home_tls_require_tls12(context) == 1 else { throw failure("cannot require TLS 1.2") }
        let trusted =
            trustStore.map { SSL_CTX_load_verify_locations(context, $0, nil) }
            ?? SSL_CTX_set_default_verify_paths(context)
        guard trusted == 1 else { throw failure("cannot read the trusted certificates") }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard let tls = SSL_new(context) else { throw failure("cannot make a TLS connection") }
        self.tls = tls
        if target.hostIsAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(tls), target.host) == 1 else {
                throw failure("cannot check the certificate for \(target.host)")
            }
        } else {
            guard swift_home_tls_set_server_name(tls, target.host) == 1, SSL_set1_host(tls, target.host) == 1 else {
                throw failure("cannot check the certificate for \(target.host)")
            }
        }
        SSL_set_fd(tls, descriptor)
        guard SSL_connect(tls) == 1 else {
            let verified = SSL_get_verify_result(tls)
            if verified != X509_V_OK {
                throw HTTPClientError(
                    url,
                    "the server's certificate is refused: \(String(cString: X509_verify_cert_error_string(verified)))")
            }
            throw failure("the TLS handshake failed")
        }
    }

    /// The error, with what OpenSSL says (its queue emptied).
    private func failure(_ what: String) -> HTTPClientError {
        var detail = ""
        var code = ERR_get_error()
        while code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            detail = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            code = ERR_get_error()
        }
        return HTTPClientError(url, detail.isEmpty ? what : "\(what): \(detail)")
    }

    func write(_ bytes: [UInt8]) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                if let tls {
                    Int(SSL_write(tls, buffer.baseAddress, Int32(buffer.count)))
                } else {
                    Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                }
            }
            if written < 0, tls == nil, errno == EINTR { continue }
            guard written > 0 else { throw failure("cannot send the request") }
            offset += written
        }
    }

    /// What came next; empty at the connection's end.
    func read() throws(HTTPClientError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            errno = 0
            let count = buffer.withUnsafeMutableBytes { buffer in
                if let tls {
                    Int(SSL_read(tls, buffer.baseAddress, Int32(buffer.count)))
                } else {
                    Glibc.recv(descriptor, buffer.baseAddress, buffer.count, 0)
                }
            }
            if count > 0 { return Array(buffer[..<count]) }
            if let tls {
                let reason = SSL_get_error(tls, Int32(count))
                // A clean close_notify, or a peer that closed TCP without one after a framed body: the reader judges.
                if reason == SSL_ERROR_ZERO_RETURN || (reason == SSL_ERROR_SYSCALL && errno == 0) { return [] }
                if reason == SSL_ERROR_SYSCALL, errno == EAGAIN || errno == EWOULDBLOCK {
                    throw HTTPClientError(url, "the server fell silent")
                }
                throw failure("the TLS connection failed")
            }
            if count == 0 { return [] }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw HTTPClientError(url, "the server fell silent") }
            throw HTTPClientError(url, "the connection failed: \(String(cString: strerror(errno)))")
        }
    }
}
