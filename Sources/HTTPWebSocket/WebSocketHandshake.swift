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
