import Testing

@testable import HTTPWebSocket

@Suite struct HTTPRouterTests {
    enum Page: Equatable { case info, socket, upload }

    static let router: HTTPRouter<Page> = {
        var router = HTTPRouter<Page>(notFoundHint: "the API is at /ws")
        router.add("GET", "/info", .info)
        router.add("GET", "/ws", .socket)
        router.add("POST", "/ws", .upload)
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
}
