import Foundation

/// An HTTP/1.1 request's head (RFC 9112 §3 request line, §5 field lines), parsed from the bytes a client sent, in
/// two phases: find the end of the head within `HTTPWebSocketLimits.requestHeadBytes`, then read its lines.
/// Obsolete line folding, a target that is not origin-form and malformed field lines are refused, not repaired.
public struct HTTPRequestHead: Sendable, Hashable {
    public let method: String
    /// The path of the target, percent-decoded (`/ws`).
    public let path: String
    /// The query's parameters, percent-decoded, in order (`?token=…`).
    public let query: [HTTPField]
    public let version: String
    /// Field names lowercased, values without surrounding whitespace, in order.
    public let fields: [HTTPField]

    /// The value of the field named `name` (any case); several fields of that name are joined with ", " (§5.3).
    public func field(_ name: String) -> String? {
        let values = fields.filter { $0.name == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Whether the comma-separated field `name` holds `token` (any case): `Connection: keep-alive, Upgrade`.
    public func field(_ name: String, contains token: String) -> Bool {
        field(name)?.split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(token) == .orderedSame
        } ?? false
    }

    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// How many bytes of body follow the head (RFC 9112 §6.3): its Content-Length, at most `limit`. A chunked body
    /// (Transfer-Encoding) is not taken: 411, asking for a length, as every client of this server can send one.
    public func bodyLength(limit: Int) throws(HTTPError) -> Int {
        if field("transfer-encoding") != nil {
            throw HTTPError(411, "send the body with a Content-Length, not a Transfer-Encoding")
        }
        guard let declared = field("content-length") else {
            throw HTTPError(411, "send the body's length as Content-Length")
        }
        guard let length = Self.contentLength(declared) else {
            throw HTTPError(400, "Content-Length \"\(declared.prefix(32))\" is not one length")
        }
        guard length <= limit else {
            throw HTTPError(413, "the body is \(length) bytes, more than the \(limit) this takes")
        }
        return length
    }

    /// A Content-Length field's value as one length: decimal digits; several fields must agree (§6.3 item 5: "10, 10"
    /// is 10, "10, 11" none).
    static func contentLength(_ declared: String) -> Int? {
        let values = Set(declared.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard values.count == 1, let value = values.first, !value.isEmpty,
            value.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(value)
    }

    public enum Parse: Sendable, Hashable {
        /// The head has not ended yet: read more.
        case incomplete
        /// The head, and how many bytes it took (what follows is the connection's next bytes).
        case complete(HTTPRequestHead, length: Int)
        case invalid(HTTPError)
    }

    /// Parses the head at the start of `bytes`.
    public static func parse(_ bytes: [UInt8]) -> Parse {
        guard let end = headEnd(in: bytes) else {
            return bytes.count > HTTPWebSocketLimits.requestHeadBytes
                ? .invalid(
                    HTTPError(431, "the request head is longer than \(HTTPWebSocketLimits.requestHeadBytes) bytes"))
                : .incomplete
        }
        guard end <= HTTPWebSocketLimits.requestHeadBytes else {
            return .invalid(
                HTTPError(431, "the request head is longer than \(HTTPWebSocketLimits.requestHeadBytes) bytes"))
        }
        guard let text = String(validating: bytes[..<end], as: UTF8.self) else {
            return .invalid(HTTPError(400, "the request head is not UTF-8"))
        }
        do {
            return .complete(try head(of: text), length: end + 4)
        } catch {
            return .invalid(error)
        }
    }

    /// Where CRLF CRLF begins, if anywhere.
    static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func head(of text: String) throws(HTTPError) -> HTTPRequestHead {
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[0].allSatisfy(isTokenCharacter) else {
            throw HTTPError(400, "the request line is not METHOD TARGET VERSION")
        }
        let version = String(requestLine[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw HTTPError(505, "\(version.prefix(16)) is not HTTP/1.1")
        }
        let target = String(requestLine[1])
        guard target.hasPrefix("/") else { throw HTTPError(400, "the target is not a path") }
        let (path, query) = try pathAndQuery(target)
        return HTTPRequestHead(
            method: String(requestLine[0]), path: path, query: query, version: version,
            fields: try fields(of: lines.dropFirst()))
    }

    /// RFC 9112 §5: field lines as NAME: VALUE, names lowercased; a request's and a response's alike.
    static func fields(of fieldLines: ArraySlice<String>) throws(HTTPError) -> [HTTPField] {
        guard fieldLines.count <= HTTPWebSocketLimits.headerFields else {
            throw HTTPError(431, "more than \(HTTPWebSocketLimits.headerFields) header fields")
        }
        var fields: [HTTPField] = []
        for line in fieldLines {
            guard let colon = line.firstIndex(of: ":"), line.first != " ", line.first != "\t" else {
                throw HTTPError(400, "a header line is not NAME: VALUE")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
                throw HTTPError(400, "a header name is not a token")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                throw HTTPError(400, "a header value holds control characters")
            }
            fields.append(HTTPField(name.lowercased(), value))
        }
        return fields
    }

    private static func pathAndQuery(_ target: String) throws(HTTPError) -> (String, [HTTPField]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = String(parts[0]).removingPercentEncoding else {
            throw HTTPError(400, "the path has a bad percent-encoding")
        }
        guard parts.count == 2 else { return (path, []) }
        var query: [HTTPField] = []
        for item in parts[1].split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(pair[0]), let value = pair.count == 2 ? decode(pair[1]) : "" else {
                throw HTTPError(400, "the query has a bad percent-encoding")
            }
            query.append(HTTPField(name, value))
        }
        return (path, query)
    }

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x41 && ascii <= 0x5A) || (ascii >= 0x61 && ascii <= 0x7A)
            || "!#$%&'*+-.^_`|~".utf8.contains(ascii)
    }

}

/// A header field, or a query parameter: a name and its value.
public struct HTTPField: Sendable, Hashable {
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A request refused, with the status to answer it with and why.
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    public let status: Int
    public let reason: String

    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status) \(HTTPResponse.reasonPhrase(status)): \(reason)" }

    /// The response that tells the client, closing the connection.
    public var response: HTTPResponse {
        HTTPResponse(status: status, fields: [HTTPField("Connection", "close")], body: Array((reason + "\n").utf8))
    }
}

/// A response to send: status line, fields (Content-Length added), body.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var fields: [HTTPField]
    public var body: [UInt8]

    public init(status: Int, fields: [HTTPField] = [], body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    public var bytes: [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        if status != 101 { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 204: "No Content"
        case 303: "See Other"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
