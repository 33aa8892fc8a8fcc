import Testing

@testable import HTTPWebSocket

@Suite struct HTTPRouterTests {
    enum Page: Equatable { case info, socket, upload, files, fileUpload }

    static let router: HTTPRouter<Page> = {
        var router = HTTPRouter<Page>(notFoundHint: "the API is at /ws")
        router.add("GET", "/info", .info)
        router.add("GET", "/ws", .socket)
        router.add("POST", "/ws", .upload)
        router.add("POST", pathsUnder: "/files/", .files)
        router.add("POST", pathsUnder: "/files/upload/", .fileUpload)
        router.add("GET", "/files/index", .info)
        return router
    }()

    static func head(_ requestLine: String) throws -> HTTPRequestHead {
        guard case .complete(let head, _) = HTTPRequestHead.parse(Array("\(requestLine)\r\nHost: x\r\n\r\n".utf8))
        else {
            throw HTTPError(400, "unparsed")
        }
        return head
    }

    static func route(_ requestLine: String) throws -> Page? {
        if case .route(let page) = router.match(try head(requestLine)) { page } else { nil }
    }

    static func refusal(_ requestLine: String) throws -> HTTPResponse? {
        if case .refused(let response) = router.match(try head(requestLine)) { response } else { nil }
    }

    @Test func aRequestGoesToTheRouteOfItsMethodAndPathWhateverItsQuery() throws {
        #expect(try Self.route("GET /info HTTP/1.1") == .info)
        #expect(try Self.route("GET /ws?token=abc HTTP/1.1") == .socket)
        #expect(try Self.route("POST /ws HTTP/1.1") == .upload)
    }

    @Test func anUnknownPathIs404AndAnUnservedMethod405NamingTheOnesServed() throws {
        let missing = try #require(try Self.refusal("GET /dashboard HTTP/1.1"))
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self) == "/dashboard is not served: the API is at /ws\n")
        let wrongMethod = try #require(try Self.refusal("DELETE /ws HTTP/1.1"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.fields.contains(HTTPField("Allow", "GET, POST")))
        let longPath = "/" + String(repeating: "a", count: 500)
        let echoed = String(decoding: try #require(try Self.refusal("GET \(longPath) HTTP/1.1")).body, as: UTF8.self)
        #expect(echoed.count < 120, "a 404 does not echo a long path whole")
    }

    @Test func aPrefixTakesEveryPathUnderItAnExactPathAndALongerPrefixComingFirst() throws {
        #expect(try Self.route("POST /files/3f9a HTTP/1.1") == .files)
        #expect(try Self.route("POST /files/upload/1 HTTP/1.1") == .fileUpload)
        #expect(try Self.route("GET /files/index HTTP/1.1") == .info)
        let wrongMethod = try #require(try Self.refusal("GET /files/3f9a HTTP/1.1"))
        #expect(wrongMethod.status == 405 && wrongMethod.fields.contains(HTTPField("Allow", "POST")))
        #expect(try Self.refusal("POST /files HTTP/1.1")?.status == 404, "the prefix itself without its slash")
    }

    /// RFC 9112 §6.3: a body's length is its Content-Length, one value (repeated alike at most), within the limit.
    @Test func aBodysLengthIsOneContentLengthWithinTheLimit() throws {
        func length(_ fields: String) throws(HTTPError) -> Int {
            guard
                case .complete(let head, _) = HTTPRequestHead.parse(
                    Array("POST /x HTTP/1.1\r\nHost: x\r\n\(fields)\r\n".utf8))
            else { throw HTTPError(0, "unparsed") }
            return try head.bodyLength(limit: 1000)
        }
        func refusal(_ fields: String) -> Int? {
            do throws(HTTPError) {
                _ = try length(fields)
                return nil
            } catch {
                return error.status
            }
        }
        #expect(try length("Content-Length: 1000\r\n") == 1000)
        #expect(try length("Content-Length: 0\r\n") == 0)
        #expect(try length("Content-Length: 12\r\nContent-Length: 12\r\n") == 12)
        #expect(refusal("") == 411)
        #expect(refusal("Transfer-Encoding: chunked\r\n") == 411)
        #expect(refusal("Content-Length: 1001\r\n") == 413)
        #expect(refusal("Content-Length: 99999999999999999999999\r\n") == 400)
        for bad in ["12, 13", "-1", "+5", "0x10", "1 2", "", "١٢"] {
            #expect(refusal("Content-Length: \(bad)\r\n") == 400, "Content-Length \(bad)")
        }
    }
}
