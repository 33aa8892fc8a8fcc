import HTTPClient
import MatterTestSupport
import Testing

/// The runtime's GET against a server on loopback that answers as the test says: bodies however framed, redirects,
/// limits, and the errors that name what went wrong.
@Suite(.timeLimit(.minutes(1))) struct HTTPClientTests {
    @Test func aBodyComesWholeFramedByLengthOrChunks() async throws {
        let server = try TestHTTPServer { path in
            switch path {
            case "/length?x=1": TestHTTPServer.answer(200, Array("by length".utf8))
            case "/chunked":
                Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nby \r\n6\r\nchunks\r\n0\r\n\r\n".utf8)
            default: TestHTTPServer.answer(404, Array("no".utf8))
            }
        }
        let length = try await HTTPClient.get(server.base + "/length?x=1", limit: 100)
        #expect(length.status == 200 && String(decoding: length.body, as: UTF8.self) == "by length")
        let chunked = try await HTTPClient.get(server.base + "/chunked", limit: 100)
        #expect(String(decoding: chunked.body, as: UTF8.self) == "by chunks")
        let missing = try await HTTPClient.get(server.base + "/other", limit: 100)
        #expect(missing.status == 404, "a status is the caller's to judge")
    }

    @Test func redirectsAreFollowedAFewTimesRelativeOrAbsolute() async throws {
        let server = try TestHTTPServer { path in
            switch path {
            case "/a": TestHTTPServer.answer(302, [], fields: ["Location: /b"])
            case "/b": TestHTTPServer.answer(301, [], fields: ["Location: c"])
            case "/c": TestHTTPServer.answer(200, Array("here".utf8))
            case "/loop": TestHTTPServer.answer(307, [], fields: ["Location: /loop"])
            case "/nowhere": TestHTTPServer.answer(302, [])
            default: nil
            }
        }
        let followed = try await HTTPClient.get(server.base + "/a", limit: 100)
        #expect(followed.status == 200 && followed.url == server.base + "/c")
        #expect(server.paths == ["/a", "/b", "/c"])
        let loop = await #expect(throws: HTTPClientError.self) {
            try await HTTPClient.get(server.base + "/loop", limit: 10)
        }
        #expect(loop?.reason == "more than 5 redirects")
        let nowhere = await #expect(throws: HTTPClientError.self) {
            try await HTTPClient.get(server.base + "/nowhere", limit: 10)
        }
        #expect(nowhere?.reason == "a redirect (302) without a Location")
    }

    @Test func whatWentWrongIsSaid() async throws {
        let server = try TestHTTPServer { path in
            switch path {
            case "/big": TestHTTPServer.answer(200, Array(repeating: 7, count: 1000))
            case "/cut": Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort".utf8)
            default: nil
            }
        }
        func reason(_ url: String, limit: Int = 100) async -> String? {
            do throws(HTTPClientError) {
                _ = try await HTTPClient.get(url, limit: limit)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(await reason(server.base + "/big", limit: 999) == "the body is larger than the 999 bytes expected")
        #expect(await reason(server.base + "/cut") == "the connection closed 95 bytes before the body's end")
        #expect(await reason(server.base + "/silent") == "the connection closed before the response's head")
        #expect(await reason("ftp://127.0.0.1/x") == "not an http or https URL")
        #expect(await reason("http://user:secret@127.0.0.1/x") == "a URL with credentials in it is refused")
        #expect(await reason("http://no-such-host.invalid/x")?.hasPrefix("cannot resolve no-such-host.invalid") == true)
        // TLS to a server that speaks plain HTTP: the handshake fails, said so.
        #expect(await reason("https://127.0.0.1:\(server.port)/big")?.hasPrefix("the TLS handshake failed") == true)
    }
}
