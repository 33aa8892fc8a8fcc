import Foundation
import HTTPWebSocket
import MatterCrypto
import Testing

/// The client's side (RFC 6455 §4.1 and §5.1), against this layer's own server side: the handshake both ways, masked
/// frames out, unmasked frames in, and the faults a client must not accept.
@Suite struct WebSocketClientTests {
    /// What a client and a server handshake and then exchange.
    private struct Pair {
        var client = WebSocketConnection(role: .client(DeterministicRandom(seed: 7)))
        var server = WebSocketConnection()

        static func written(_ actions: [WebSocketConnection.Action]) -> [UInt8] {
            actions.flatMap { action -> [UInt8] in if case .write(let bytes) = action { bytes } else { [] } }
        }

        static func delivered(_ actions: [WebSocketConnection.Action]) -> [WebSocketConnection.Message] {
            actions.compactMap { action in if case .deliver(let message) = action { message } else { nil } }
        }
    }

    @Test func theClientsRequestIsAcceptedAndTheAnswerChecked() throws {
        let handshake = WebSocketClientHandshake(random: DeterministicRandom(seed: 1))
        #expect(Data(base64Encoded: handshake.key)?.count == 16)
        let request = handshake.request(
            host: "127.0.0.1:5580", path: "/ble?token=abc", fields: [HTTPField("Authorization", "Bearer abc")])
        guard case .complete(let head, let length) = HTTPRequestHead.parse(request) else {
            Issue.record("the server could not read the request")
            return
        }
        #expect(length == request.count)
        #expect(head.path == "/ble" && head.queryValue("token") == "abc" && head.field("authorization") == "Bearer abc")
        let answer = try WebSocketHandshake.accept(head).bytes
        // Frames may follow the answer in the same read.
        #expect(handshake.answer(in: answer + [0x81, 0x00]) == .accepted(length: answer.count))
        for cut in 0..<answer.count {
            #expect(handshake.answer(in: Array(answer.prefix(cut))) == .incomplete)
        }
    }

    @Test func anAnswerThatIsNotThisKeysUpgradeIsRefused() throws {
        let handshake = WebSocketClientHandshake(random: DeterministicRandom(seed: 1))
        let other = WebSocketClientHandshake(random: DeterministicRandom(seed: 2))
        let head = try #require(
            {
                if case .complete(let head, _) = HTTPRequestHead.parse(other.request(host: "h", path: "/ble")) {
                    return head
                }
                return nil
            }())
        let othersAnswer = try WebSocketHandshake.accept(head).bytes
        guard case .refused(let reason) = handshake.answer(in: othersAnswer) else {
            Issue.record("another key's accept value was taken")
            return
        }
        #expect(reason.contains("Sec-WebSocket-Accept"))
        let unauthorized = Array("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n".utf8)
        #expect(handshake.answer(in: unauthorized) == .refused("the server answered 401 Unauthorized"))
    }

    @Test func messagesGoBothWaysMaskedFromTheClientOnly() {
        var pair = Pair()
        let text = pair.client.send(text: #"{"type": "hello", "version": 1}"#)
        let frame = Pair.written(text)
        #expect(frame[1] & 0x80 != 0, "a client's frame is masked")
        #expect(!frame.contains(Array("hello".utf8)), "the payload does not go in the clear")
        #expect(Pair.delivered(pair.server.receive(frame)) == [.text(#"{"type": "hello", "version": 1}"#)])

        let binary = Pair.written(pair.server.send(binary: [0x02, 0x00, 0x01, 0x65, 0x6C]))
        #expect(binary[1] & 0x80 == 0, "a server's frame is not")
        #expect(Pair.delivered(pair.client.receive(binary)) == [.binary([0x02, 0x00, 0x01, 0x65, 0x6C])])

        // A ping from the server is answered with a masked pong the server reads.
        let pong = Pair.written(pair.client.receive(Pair.written(pair.server.ping([9]))))
        #expect(pong.first == 0x8A && pong[1] & 0x80 != 0)
        #expect(pair.server.receive(pong).isEmpty)

        // Two masked frames never share a key.
        let first = Pair.written(pair.client.send(binary: [1, 2, 3, 4]))
        let second = Pair.written(pair.client.send(binary: [1, 2, 3, 4]))
        #expect(first[2..<6] != second[2..<6])
    }

    @Test func aMaskedFrameFromTheServerFailsTheConnection() {
        var client = WebSocketConnection(role: .client(DeterministicRandom(seed: 3)))
        let masked = WebSocketFrame.encode(.text, Array("hi".utf8), mask: [1, 2, 3, 4])
        let actions = client.receive(masked)
        #expect(actions.contains(.closeConnection(.protocolError)))
        #expect(Pair.delivered(actions).isEmpty)
        #expect(client.isClosed)
    }

    @Test func theClientsCloseIsMaskedAndTheServerEchoesIt() {
        var pair = Pair()
        let close = Pair.written(pair.client.close(.normal, reason: "done"))
        #expect(close.first == 0x88 && close[1] & 0x80 != 0)
        let answer = pair.server.receive(close)
        #expect(answer.contains(.closeConnection(.normal)))
        #expect(pair.client.receive(Pair.written(answer)) == [.closeConnection(.normal)])
    }
}
