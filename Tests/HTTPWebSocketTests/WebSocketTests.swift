import Foundation
import HTTPWebSocket
import Testing

@Suite struct HTTPRequestHeadTests {
    static let upgrade = Array(
        """
        GET /ws?token=a%20b&x HTTP/1.1\r
        Host: 127.0.0.1:5580\r
        Upgrade: websocket\r
        Connection: keep-alive, Upgrade\r
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
        Sec-WebSocket-Version: 13\r
        Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r
        \r

        """.utf8)

    @Test func aHeadIsReadWithItsPathQueryAndFieldsAndItsLength() throws {
        let bytes = Self.upgrade + [0x81]  // the first byte of a frame already behind it
        guard case .complete(let head, let length) = HTTPRequestHead.parse(bytes) else {
            Issue.record("not parsed: \(HTTPRequestHead.parse(bytes))")
            return
        }
        #expect(length == Self.upgrade.count)
        #expect(head.method == "GET" && head.path == "/ws" && head.version == "HTTP/1.1")
        #expect(head.queryValue("token") == "a b" && head.queryValue("x") == "")
        #expect(head.field("HOST") == "127.0.0.1:5580")
        #expect(head.field("connection", contains: "upgrade") && !head.field("connection", contains: "close"))
    }

    @Test func aHeadCutAnywhereIsIncomplete() {
        for end in 0..<Self.upgrade.count {
            #expect(HTTPRequestHead.parse(Array(Self.upgrade.prefix(end))) == .incomplete, "cut at \(end)")
        }
    }

    @Test(arguments: [
        ("GET /ws\r\n\r\n", 400),
        ("GET ws HTTP/1.1\r\n\r\n", 400),
        ("GET /ws HTTP/2.0\r\n\r\n", 505),
        ("GET /ws HTTP/1.1\r\nHost 1\r\n\r\n", 400),
        ("GET /ws HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
        ("GET /ws HTTP/1.1\r\nBad Name: a\r\n\r\n", 400),
        ("GET /%zz HTTP/1.1\r\n\r\n", 400),
    ])
    func malformedHeadsAreRefusedWithTheirStatus(head: String, status: Int) {
        guard case .invalid(let error) = HTTPRequestHead.parse(Array(head.utf8)) else {
            Issue.record("accepted: \(head)")
            return
        }
        #expect(error.status == status)
        #expect(String(decoding: error.response.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 \(status) "))
    }

    @Test func anEndlessHeadIsRefusedOnceItPassesTheLimit() {
        let long =
            Array("GET / HTTP/1.1\r\nX: ".utf8) + [UInt8](repeating: 0x61, count: HTTPWebSocketLimits.requestHeadBytes)
        guard case .invalid(let error) = HTTPRequestHead.parse(long) else {
            Issue.record("not refused")
            return
        }
        #expect(error.status == 431)
        let many =
            "GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: HTTPWebSocketLimits.headerFields + 1) + "\r\n"
        #expect(HTTPRequestHead.parse(Array(many.utf8)) == .invalid(HTTPError(431, "more than 64 header fields")))
    }
}

@Suite struct WebSocketHandshakeTests {
    /// RFC 6455 §1.3's own example.
    @Test func theAcceptValueIsTheRFCs() {
        #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func anUpgradeIsAnsweredWithoutTheOfferedCompression() throws {
        guard case .complete(let head, _) = HTTPRequestHead.parse(HTTPRequestHeadTests.upgrade) else {
            Issue.record("not parsed")
            return
        }
        let response = String(decoding: try WebSocketHandshake.accept(head).bytes, as: UTF8.self)
        #expect(
            response
                == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
    }

    @Test func whatIsNoOpeningIsRefused() throws {
        func refusal(_ replacing: String, with: String) -> HTTPError? {
            let text = String(decoding: HTTPRequestHeadTests.upgrade, as: UTF8.self)
                .replacingOccurrences(of: replacing, with: with)
            guard case .complete(let head, _) = HTTPRequestHead.parse(Array(text.utf8)) else { return nil }
            do {
                _ = try WebSocketHandshake.accept(head)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal("GET", with: "POST")?.status == 405)
        #expect(refusal("Upgrade: websocket", with: "Upgrade: h2c")?.status == 426)
        let version = try #require(refusal("Version: 13", with: "Version: 8"))
        #expect(version.status == 426)
        #expect(
            String(decoding: version.handshakeResponse.bytes, as: UTF8.self).contains("Sec-WebSocket-Version: 13\r\n"))
        #expect(refusal("dGhlIHNhbXBsZSBub25jZQ==", with: "c2hvcnQ=")?.status == 400)
        #expect(refusal("Host: 127.0.0.1:5580\r\n", with: "")?.status == 400)
    }
}

@Suite struct WebSocketConnectionTests {
    /// RFC 6455 §5.7's examples, as a client sends them (masked with 37 fa 21 3d).
    static let maskedHello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]

    /// A client frame: masked with `mask`.
    static func clientFrame(
        _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: [UInt8] = [1, 2, 3, 4]
    ) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case 0...125: frame.append(0x80 | UInt8(payload.count))
        case 126...0xFFFF: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        return frame + mask + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    }

    @Test func theRFCsMaskedHelloIsDeliveredWhicheverWayItIsCut() {
        for cut in 0...Self.maskedHello.count {
            var connection = WebSocketConnection()
            let actions =
                connection.receive(Array(Self.maskedHello[..<cut]))
                + connection.receive(Array(Self.maskedHello[cut...]))
            #expect(actions == [.deliver(.text("Hello"))], "cut at \(cut)")
        }
    }

    @Test func fragmentsAreJoinedAroundAPingAndThePingIsAnswered() {
        var connection = WebSocketConnection()
        let bytes =
            Self.clientFrame(0x1, Array("Hel".utf8), fin: false) + Self.clientFrame(0x9, Array("beat".utf8))
            + Self.clientFrame(0x0, Array("lo".utf8))
        #expect(
            connection.receive(bytes) == [
                .write(WebSocketFrame.encode(.pong, Array("beat".utf8))), .deliver(.text("Hello")),
            ])
    }

    @Test(arguments: [0, 125, 126, 65535, 65536, 300_000])
    func everyLengthFormRoundTrips(length: Int) {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        var connection = WebSocketConnection()
        #expect(connection.receive(Self.clientFrame(0x2, payload)) == [.deliver(.binary(payload))])
        // The server's own frame for it: unmasked, same length form (RFC 6455 §5.2).
        let frame = WebSocketFrame.encode(.binary, payload)
        let header = length <= 125 ? 2 : length <= 0xFFFF ? 4 : 10
        #expect(frame.count == header + length && frame[1] & 0x80 == 0 && Array(frame[header...]) == payload)
    }

    @Test func aCloseIsEchoedAndEndsTheConnection() {
        var connection = WebSocketConnection()
        let actions = connection.receive(Self.clientFrame(0x8, [0x03, 0xE8] + Array("bye".utf8)))
        #expect(actions == [.write(WebSocketFrame.close(.normal, reason: "")), .closeConnection(.normal)])
        #expect(connection.isClosed)
        #expect(connection.receive(Self.maskedHello).isEmpty, "nothing is read after the close")
    }

    @Test func ourCloseWaitsForTheirsAndIgnoresDataMeanwhile() {
        var connection = WebSocketConnection()
        #expect(
            connection.close(.goingAway, reason: "hub stopping") == [
                .write(WebSocketFrame.close(.goingAway, reason: "hub stopping"))
            ])
        #expect(connection.receive(Self.maskedHello).isEmpty)
        #expect(connection.receive(Self.clientFrame(0x8, [0x03, 0xE9])) == [.closeConnection(.goingAway)])
    }

    @Test(arguments: [
        ("unmasked", [0x81, 0x01, 0x41] as [UInt8], 1002),
        ("reserved bit", clientFrame(0x1 | 0x40, [0x41]), 1002),
        ("reserved opcode", clientFrame(0x3, []), 1002),
        ("fragmented ping", clientFrame(0x9, [], fin: false), 1002),
        ("long ping", clientFrame(0x9, [UInt8](repeating: 0, count: 126)), 1002),
        ("continuation alone", clientFrame(0x0, [0x41]), 1002),
        ("message inside a message", clientFrame(0x1, [0x41], fin: false) + clientFrame(0x1, [0x42]), 1002),
        ("bad UTF-8", clientFrame(0x1, [0xC3, 0x28]), 1007),
        ("one-byte close", clientFrame(0x8, [0x03]), 1002),
        ("close code 1005", clientFrame(0x8, [0x03, 0xED]), 1002),
        ("close reason not UTF-8", clientFrame(0x8, [0x03, 0xE8, 0xFF]), 1007),
        ("huge frame", [0x82, 0xFF, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF], 1009),
        ("top length bit", [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], 1002),
    ])
    func aBrokenFrameClosesWithItsCode(name: String, bytes: [UInt8], code: UInt16) {
        var connection = WebSocketConnection()
        let actions = connection.receive(bytes)
        guard case .closeConnection(let closed) = actions.last, case .write(let frame) = actions.dropLast().last else {
            Issue.record("\(name): \(actions)")
            return
        }
        #expect(closed?.rawValue == code, "\(name)")
        #expect(
            Array(frame.prefix(4)) == [0x88, UInt8(frame.count - 2), UInt8(code >> 8), UInt8(code & 0xFF)], "\(name)")
        #expect(connection.isClosed)
    }

    @Test func fragmentsPastTheLimitCloseWith1009() {
        var connection = WebSocketConnection()
        let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
        var actions: [WebSocketConnection.Action] = []
        for index in 0...(HTTPWebSocketLimits.messageBytes / chunk.count) {
            actions += connection.receive(Self.clientFrame(index == 0 ? 0x1 : 0x0, chunk, fin: false))
            if connection.isClosed { break }
        }
        #expect(actions.last == .closeConnection(.messageTooBig))
    }

    @Test func aLongCloseReasonIsCutToAControlFrameOnACharacterBoundary() {
        let frame = WebSocketFrame.close(.internalError, reason: String(repeating: "é", count: 100))
        #expect(frame.count <= 2 + HTTPWebSocketLimits.controlPayloadBytes)
        #expect(String(validating: frame[4...], as: UTF8.self) != nil)
    }
}
