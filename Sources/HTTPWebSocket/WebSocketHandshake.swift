import Foundation
import MatterCrypto

/// The server's side of the WebSocket opening handshake (RFC 6455 §4.2): a GET over HTTP/1.1 asking to upgrade,
/// version 13, with a 16-byte base64 key, answered 101 with the key's accept value. Extensions the client offers
/// (permessage-deflate, §9) are declined by not naming them in the answer, which the RFC allows and every client
/// here accepts; no subprotocol is chosen.
public enum WebSocketHandshake {
    /// RFC 6455 §1.3: the GUID appended to the client's key.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The 101 answer to `head`, or why it is no WebSocket opening.
    public static func accept(_ head: HTTPRequestHead) throws(HTTPError) -> HTTPResponse {
        guard head.method == "GET" else {
            throw HTTPError(405, "a WebSocket opens with GET, not \(head.method.prefix(16))")
        }
        guard head.version == "HTTP/1.1" else { throw HTTPError(400, "a WebSocket opens over HTTP/1.1") }
        guard head.field("host") != nil else { throw HTTPError(400, "the request has no Host field") }
        guard head.field("upgrade", contains: "websocket"), head.field("connection", contains: "upgrade") else {
            throw HTTPError(426, "this path speaks WebSocket: the request must ask to upgrade to it")
        }
        guard head.field("sec-websocket-version") == "13" else {
            throw HTTPError(426, "only WebSocket version 13 is spoken")
        }
        guard let key = head.field("sec-websocket-key"), let decoded = Data(base64Encoded: key), decoded.count == 16
        else {
            throw HTTPError(400, "Sec-WebSocket-Key is not 16 bytes in base64")
        }
        return HTTPResponse(
            status: 101,
            fields: [
                HTTPField("Upgrade", "websocket"), HTTPField("Connection", "Upgrade"),
                HTTPField("Sec-WebSocket-Accept", acceptValue(for: key)),
            ])
    }

    /// base64(SHA-1(key + GUID)), §4.2.2.
    public static func acceptValue(for key: String) -> String {
        Data(SHA1.hash(Array((key + acceptGUID).utf8))).base64EncodedString()
    }
}

extension HTTPError {
    /// A version the server does not speak is answered with the one it does (§4.4).
    public var handshakeResponse: HTTPResponse {
        var response = self.response
        if status == 426 { response.fields.append(HTTPField("Sec-WebSocket-Version", "13")) }
        return response
    }
}

/// The client's side of the opening handshake (RFC 6455 §4.1): a GET asking to upgrade with a fresh 16-byte key, and
/// the check that the answer is 101 with that key's accept value (anything else fails the connection, §4.1 step 5).
public struct WebSocketClientHandshake: Sendable {
    /// The base64 of 16 random bytes, new for each connection.
    public let key: String

    public init(random: any RandomSource) {
        key = Data(random.bytes(16)).base64EncodedString()
    }

    /// The request for `path` (with its query) on `host` (with its port), with `fields` beside the handshake's own.
    public func request(host: String, path: String, fields: [HTTPField] = []) -> [UInt8] {
        var head = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    public enum Answer: Sendable, Hashable {
        /// The answer's head has not ended yet: read more.
        case incomplete
        /// Upgraded: the WebSocket's frames begin after `length` bytes.
        case accepted(length: Int)
        /// No WebSocket, and why (the status the server answered, or what was wrong with its 101).
        case refused(String)
    }

    /// Reads the server's answer at the start of `bytes`.
    public func answer(in bytes: [UInt8]) -> Answer {
        guard let end = HTTPRequestHead.headEnd(in: bytes) else {
            return bytes.count > HTTPWebSocketLimits.requestHeadBytes
                ? .refused("the answer's head never ended") : .incomplete
        }
        guard let text = String(validating: bytes[..<end], as: UTF8.self) else {
            return .refused("the answer is not UTF-8")
        }
        let lines = text.components(separatedBy: "\r\n")
        let status = lines[0].split(separator: " ", maxSplits: 2)
        guard status.count >= 2, status[0].hasPrefix("HTTP/1.") else { return .refused("the answer is not HTTP") }
        guard status[1] == "101" else {
            return .refused("the server answered \(lines[0].dropFirst(status[0].count + 1).prefix(80))")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return .refused("a header line is not NAME: VALUE") }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard fields["upgrade"]?.lowercased() == "websocket",
            fields["connection"]?.lowercased().split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == "upgrade"
            }) == true
        else { return .refused("the 101 answer does not upgrade to websocket") }
        guard fields["sec-websocket-accept"] == WebSocketHandshake.acceptValue(for: key) else {
            return .refused("the 101 answer's Sec-WebSocket-Accept is not our key's")
        }
        return .accepted(length: end + 4)
    }
}
