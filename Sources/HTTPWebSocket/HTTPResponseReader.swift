import Foundation

/// A response to a request this side sent (RFC 9112 §4 status line, §5 fields, §6 body), read from the bytes as they
/// come, with no I/O: the head once whole, then the body as it arrives, framed by Content-Length, chunked transfer
/// coding (§7.1) or the connection's end, and whether it is over.
public struct HTTPResponseReader: Sendable {
    public struct Head: Sendable, Hashable {
        public let status: Int
        public let fields: [HTTPField]

        /// The value of the field named `name` (any case), several joined with ", ".
        public func field(_ name: String) -> String? {
            let values = fields.filter { $0.name == name.lowercased() }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
    }

    public enum Event: Sendable, Hashable {
        case head(Head)
        case body([UInt8])
        case end
    }

    private enum Chunked: Sendable {
        /// Reading a chunk-size line (and its extensions).
        case size
        case data(remaining: Int)
        /// The CRLF after a chunk's data.
        case dataEnd
        /// The trailer section after the last chunk, up to its empty line.
        case trailers
    }

    private enum State: Sendable {
        case head
        case length(remaining: Int)
        case chunked(Chunked)
        case untilClose
        case done
    }

    private var state = State.head
    private var buffer: [UInt8] = []
    /// A response to HEAD, or 1xx/204/304, has no body whatever its fields say (§6.3 items 1 and 2).
    private let requestWasHead: Bool

    public init(requestWasHead: Bool = false) {
        self.requestWasHead = requestWasHead
    }

    public var isDone: Bool {
        if case .done = state { true } else { false }
    }

    /// Takes the bytes that came; what they complete.
    public mutating func receive(_ bytes: [UInt8]) throws(HTTPError) -> [Event] {
        buffer += bytes
        var events: [Event] = []
        while true {
            let progressed = try step(&events)
            if !progressed { return events }
        }
    }

    /// The connection ended: the end of a body read until then, or an error saying the response was cut short.
    public mutating func closed() throws(HTTPError) -> [Event] {
        switch state {
        case .done: return []
        case .untilClose:
            state = .done
            return [.end]
        case .head: throw HTTPError(502, "the connection closed before the response's head")
        case .length(let remaining):
            throw HTTPError(502, "the connection closed \(remaining) bytes before the body's end")
        case .chunked: throw HTTPError(502, "the connection closed before the last chunk")
        }
    }

    /// One step on the buffer; false when it needs more bytes.
    private mutating func step(_ events: inout [Event]) throws(HTTPError) -> Bool {
        switch state {
        case .done:
            return false
        case .head:
            guard let end = HTTPRequestHead.headEnd(in: buffer) else {
                if buffer.count > HTTPWebSocketLimits.requestHeadBytes {
                    throw HTTPError(
                        502, "the response head is longer than \(HTTPWebSocketLimits.requestHeadBytes) bytes")
                }
                return false
            }
            let head = try Self.head(of: Array(buffer[..<end]))
            buffer.removeFirst(end + 4)
            // 1xx is an interim response: the final one follows (§15.2).
            if (100..<200).contains(head.status) { return true }
            events.append(.head(head))
            state = try Self.framing(of: head, requestWasHead: requestWasHead)
            if case .done = state { events.append(.end) }
            return true
        case .length(let remaining):
            guard !buffer.isEmpty else { return false }
            let taken = Array(buffer.prefix(remaining))
            buffer.removeFirst(taken.count)
            events.append(.body(taken))
            let left = remaining - taken.count
            state = left == 0 ? .done : .length(remaining: left)
            if left == 0 { events.append(.end) }
            return left == 0 ? false : !buffer.isEmpty
        case .untilClose:
            guard !buffer.isEmpty else { return false }
            events.append(.body(buffer))
            buffer = []
            return false
        case .chunked(let chunked):
            return try stepChunked(chunked, &events)
        }
    }

    private mutating func stepChunked(_ chunked: Chunked, _ events: inout [Event]) throws(HTTPError) -> Bool {
        switch chunked {
        case .size:
            guard let line = takeLine() else { return false }
            // chunk-size [; extensions]: the size in hexadecimal, extensions ignored (§7.1.1).
            let digits = line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isHexDigit),
                let size = Int(digits, radix: 16)
            else {
                throw HTTPError(502, "a chunk's size \"\(line.prefix(20))\" is not hexadecimal")
            }
            state = .chunked(size == 0 ? .trailers : .data(remaining: size))
            return true
        case .data(let remaining):
            guard !buffer.isEmpty else { return false }
            let taken = Array(buffer.prefix(remaining))
            buffer.removeFirst(taken.count)
            events.append(.body(taken))
            let left = remaining - taken.count
            state = .chunked(left == 0 ? .dataEnd : .data(remaining: left))
            return left == 0
        case .dataEnd:
            guard let line = takeLine() else { return false }
            guard line.isEmpty else { throw HTTPError(502, "a chunk's data runs past its size") }
            state = .chunked(.size)
            return true
        case .trailers:
            guard let line = takeLine() else { return false }
            if line.isEmpty {
                state = .done
                events.append(.end)
                return false
            }
            return true
        }
    }

    /// A line up to CRLF, taken from the buffer; nil until it is whole.
    private mutating func takeLine() -> String? {
        guard let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) else {
            return nil
        }
        let line = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 2)
        return line
    }

    private static func head(of bytes: [UInt8]) throws(HTTPError) -> Head {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw HTTPError(502, "the response head is not UTF-8")
        }
        let lines = text.components(separatedBy: "\r\n")
        // HTTP-version SP status-code SP [reason-phrase]
        let parts = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]),
            (100..<600).contains(status)
        else {
            throw HTTPError(502, "the status line \"\(lines[0].prefix(40))\" is not HTTP/1.x STATUS")
        }
        return Head(status: status, fields: try HTTPRequestHead.fields(of: lines.dropFirst()))
    }

    /// §6.3: how the body is framed.
    private static func framing(of head: Head, requestWasHead: Bool) throws(HTTPError) -> State {
        if requestWasHead || head.status == 204 || head.status == 304 { return .done }
        if let coding = head.field("transfer-encoding") {
            guard coding.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased() == "chunked"
            else {
                throw HTTPError(502, "the transfer coding \"\(coding.prefix(30))\" is not chunked")
            }
            return .chunked(.size)
        }
        if let declared = head.field("content-length") {
            guard let length = HTTPRequestHead.contentLength(declared) else {
                throw HTTPError(502, "Content-Length \"\(declared.prefix(32))\" is not one length")
            }
            return length == 0 ? .done : .length(remaining: length)
        }
        return .untilClose
    }
}
