import HTTPWebSocket
import Testing

/// RFC 9112's framings of a response body, read from bytes however they are cut.
@Suite struct HTTPResponseReaderTests {
    /// The head's status and the whole body, fed `cut` bytes at a time.
    static func read(_ text: String, cut: Int, requestWasHead: Bool = false) throws(HTTPError) -> (Int, String, Bool) {
        var reader = HTTPResponseReader(requestWasHead: requestWasHead)
        let bytes = Array(text.utf8)
        var status = 0
        var body: [UInt8] = []
        var ended = false
        var events: [HTTPResponseReader.Event] = []
        for start in stride(from: 0, to: bytes.count, by: cut) {
            events += try reader.receive(Array(bytes[start..<min(start + cut, bytes.count)]))
        }
        events += try reader.closed()
        for event in events {
            switch event {
            case .head(let head): status = head.status
            case .body(let part): body += part
            case .end: ended = true
            }
        }
        return (status, String(decoding: body, as: UTF8.self), ended)
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func eachFramingGivesTheWholeBodyHoweverTheBytesAreCut(cut: Int) throws {
        let length = try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", cut: cut)
        #expect(length == (200, "hello", true))
        let chunked = try Self.read(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n",
            cut: cut)
        #expect(chunked == (200, "hello, world", true))
        let untilClose = try Self.read("HTTP/1.0 200 OK\r\n\r\nall of it", cut: cut)
        #expect(untilClose == (200, "all of it", true))
        // An interim 100 is skipped; the final response counts.
        let interim = try Self.read(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno", cut: cut)
        #expect(interim == (404, "no", true))
    }

    @Test func responsesWithoutABodyEndAtTheirHead() throws {
        #expect(try Self.read("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", cut: 100) == (204, "", true))
        #expect(
            try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", cut: 100, requestWasHead: true) == (
                200, "", true
            ))
        #expect(try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", cut: 100) == (200, "", true))
    }

    @Test func aBrokenOrCutResponseIsAnErrorSayingWhat() {
        func error(_ text: String) -> String? {
            do throws(HTTPError) {
                _ = try Self.read(text, cut: 4)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(
            error("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")
                == "the connection closed 5 bytes before the body's end")
        #expect(
            error("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
                == "the connection closed before the last chunk")
        #expect(
            error("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")?.hasPrefix("a chunk's size") == true)
        #expect(
            error("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n")
                == "a chunk's data runs past its size")
        #expect(error("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n")?.contains("not chunked") == true)
        #expect(error("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n")?.contains("not one length") == true)
        #expect(error("SSH-2.0-OpenSSH\r\n\r\n")?.contains("is not HTTP/1.x STATUS") == true)
        #expect(error("HTTP/1.1 200 OK\r\nContent-") == "the connection closed before the response's head")
    }
}
