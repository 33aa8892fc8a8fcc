import MatterCrypto

/// One WebSocket connection after the handshake (RFC 6455 §5–§7), sans-IO: it takes the bytes the peer sent and
/// returns what to do — deliver a message, write bytes, close the socket. The runtime carries the actions out; a
/// heartbeat's timer is the driver's, which calls `ping`. The server's side by default; a client's side (a virtual
/// device reaching the hub's `/ble` as a proxy) masks what it sends with fresh keys and takes only unmasked frames
/// (§5.1).
///
/// A peer that breaks the protocol is sent a Close with the matching code (1002 framing, 1007 bad UTF-8, 1009 too
/// big) and the connection ends: nothing it sent after the fault is looked at.
public struct WebSocketConnection: Sendable {
    /// Which end of the connection this is.
    public enum Role: Sendable {
        case server
        /// Masks each frame with a key from `random` (§5.3: unpredictable to the network).
        case client(any RandomSource)
    }

    public enum Message: Sendable, Hashable {
        case text(String)
        case binary([UInt8])
    }

    public enum Action: Sendable, Hashable {
        case deliver(Message)
        case write([UInt8])
        /// Close the socket; `code` is what the connection ended with (the peer's, or ours).
        case closeConnection(WebSocketCloseCode?)
    }

    private enum State: Sendable {
        case open
        /// We sent Close and wait for the peer's.
        case closing
        case closed
    }

    /// A data message whose first frames have come and whose FIN has not.
    private struct Fragments: Sendable {
        let opcode: WebSocketOpcode
        var payload: [UInt8]
    }

    private var state = State.open
    private var buffer: [UInt8] = []
    private var fragments: Fragments?
    private let role: Role

    public init(role: Role = .server) {
        self.role = role
    }

    private var isClient: Bool {
        if case .client = role { return true }
        return false
    }

    /// One frame to the peer: a client's masked, a server's not (§5.1).
    private func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        switch role {
        case .server: WebSocketFrame.encode(opcode, payload)
        case .client(let random): WebSocketFrame.encode(opcode, payload, mask: random.bytes(4))
        }
    }

    public var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Feeds what the client sent.
    public mutating func receive(_ bytes: [UInt8]) -> [Action] {
        guard !isClosed else { return [] }
        buffer.append(contentsOf: bytes)
        var actions: [Action] = []
        var offset = 0
        while !isClosed {
            switch Self.frame(in: buffer, at: offset, masked: !isClient) {
            case .incomplete:
                buffer.removeFirst(offset)
                return actions
            case .invalid(let code, let reason):
                actions += fail(code, reason)
            case .frame(let fin, let opcode, let payload, let length):
                offset += length
                actions += take(fin: fin, opcode: opcode, payload: payload)
            }
        }
        buffer = []
        return actions
    }

    /// A text message to the peer.
    public mutating func send(text: String) -> [Action] {
        guard case .open = state else { return [] }
        return [.write(frame(.text, Array(text.utf8)))]
    }

    /// A binary message to the peer.
    public mutating func send(binary: [UInt8]) -> [Action] {
        guard case .open = state else { return [] }
        return [.write(frame(.binary, binary))]
    }

    public mutating func ping(_ payload: [UInt8] = []) -> [Action] {
        guard case .open = state else { return [] }
        return [.write(frame(.ping, Array(payload.prefix(HTTPWebSocketLimits.controlPayloadBytes))))]
    }

    /// Starts the closing handshake: the socket closes once the peer answers (or the driver gives up waiting).
    public mutating func close(_ code: WebSocketCloseCode, reason: String = "") -> [Action] {
        guard case .open = state else { return [] }
        state = .closing
        return [.write(frame(.close, WebSocketFrame.closePayload(code, reason: reason)))]
    }

    // MARK: Frames

    private mutating func take(fin: Bool, opcode: WebSocketOpcode, payload: [UInt8]) -> [Action] {
        switch opcode {
        case .ping:
            guard case .open = state else { return [] }
            return [.write(frame(.pong, payload))]
        case .pong:
            return []
        case .close:
            return peerClosed(payload)
        case .text, .binary:
            guard fragments == nil else {
                return fail(.protocolError, "a new message began before the last one's final fragment")
            }
            if fin { return complete(opcode, payload) }
            guard payload.count <= HTTPWebSocketLimits.messageBytes else { return tooBig() }
            fragments = Fragments(opcode: opcode, payload: payload)
            return []
        case .continuation:
            guard var message = fragments else { return fail(.protocolError, "a continuation frame began no message") }
            guard message.payload.count + payload.count <= HTTPWebSocketLimits.messageBytes else { return tooBig() }
            message.payload += payload
            if fin {
                fragments = nil
                return complete(message.opcode, message.payload)
            }
            fragments = message
            return []
        }
    }

    private mutating func complete(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [Action] {
        guard case .open = state else { return [] }  // §5.5.1: data after our Close is not looked at
        guard payload.count <= HTTPWebSocketLimits.messageBytes else { return tooBig() }
        if opcode == .binary { return [.deliver(.binary(payload))] }
        guard let text = String(validating: payload, as: UTF8.self) else {
            return fail(.invalidPayload, "a text message is not UTF-8")
        }
        return [.deliver(.text(text))]
    }

    /// §5.5.1: answer a Close with one (echoing its code) unless ours went first, then close the socket.
    private mutating func peerClosed(_ payload: [UInt8]) -> [Action] {
        var code: WebSocketCloseCode?
        if payload.count == 1 { return fail(.protocolError, "a Close frame's payload is one byte") }
        if payload.count >= 2 {
            let received = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
            guard received.isValidOnTheWire else { return fail(.protocolError, "close code \(received) is not valid") }
            guard String(validating: payload[2...], as: UTF8.self) != nil else {
                return fail(.invalidPayload, "a Close frame's reason is not UTF-8")
            }
            code = received
        }
        let wasOpen: Bool
        if case .open = state { wasOpen = true } else { wasOpen = false }
        state = .closed
        guard wasOpen else { return [.closeConnection(code)] }
        return [
            .write(frame(.close, WebSocketFrame.closePayload(code ?? .normal, reason: ""))), .closeConnection(code),
        ]
    }

    private mutating func fail(_ code: WebSocketCloseCode, _ reason: String) -> [Action] {
        let wasOpen: Bool
        if case .open = state { wasOpen = true } else { wasOpen = false }
        state = .closed
        return (wasOpen ? [.write(frame(.close, WebSocketFrame.closePayload(code, reason: reason)))] : [])
            + [.closeConnection(code)]
    }

    private mutating func tooBig() -> [Action] {
        fail(.messageTooBig, "a message is larger than \(HTTPWebSocketLimits.messageBytes) bytes")
    }

    private enum FrameRead {
        case incomplete
        case invalid(WebSocketCloseCode, String)
        case frame(fin: Bool, opcode: WebSocketOpcode, payload: [UInt8], length: Int)
    }

    /// Reads one frame (§5.2) at `offset`: masked when it is a client's (§5.1: a server takes only masked frames, a
    /// client only unmasked ones), no reserved bits, a known opcode, control frames short and final, a length the layer
    /// accepts (checked before any of the payload is held).
    private static func frame(in bytes: [UInt8], at offset: Int, masked: Bool) -> FrameRead {
        let available = bytes.count - offset
        guard available >= 2 else { return .incomplete }
        let first = bytes[offset]
        let second = bytes[offset + 1]
        guard first & 0x70 == 0 else {
            return .invalid(.protocolError, "reserved bits are set: no extension was agreed")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            return .invalid(.protocolError, "opcode \(first & 0x0F) is reserved")
        }
        let fin = first & 0x80 != 0
        guard second & 0x80 != 0 || !masked else { return .invalid(.protocolError, "a client's frame must be masked") }
        guard second & 0x80 == 0 || masked else {
            return .invalid(.protocolError, "a server's frame must not be masked")
        }
        var length = UInt64(second & 0x7F)
        var header = 2
        if length == 126 {
            guard available >= 4 else { return .incomplete }
            length = UInt64(bytes[offset + 2]) << 8 | UInt64(bytes[offset + 3])
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return .incomplete }
            length = (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[offset + 2 + $1]) }
            header = 10
            guard length >> 63 == 0 else { return .invalid(.protocolError, "a 64-bit length has its top bit set") }
        }
        if opcode.isControl {
            guard fin else { return .invalid(.protocolError, "a control frame is fragmented") }
            guard length <= UInt64(HTTPWebSocketLimits.controlPayloadBytes) else {
                return .invalid(.protocolError, "a control frame's payload is over 125 bytes")
            }
        }
        guard length <= UInt64(HTTPWebSocketLimits.messageBytes) else {
            return .invalid(.messageTooBig, "a frame is larger than \(HTTPWebSocketLimits.messageBytes) bytes")
        }
        let maskLength = masked ? 4 : 0
        let total = header + maskLength + Int(length)
        guard available >= total else { return .incomplete }
        let start = offset + header + maskLength
        var payload = Array(bytes[start..<(start + Int(length))])
        if masked {
            let mask = Array(bytes[(offset + header)..<(offset + header + 4)])
            for index in payload.indices { payload[index] ^= mask[index & 3] }
        }
        return .frame(fin: fin, opcode: opcode, payload: payload, length: total)
    }
}
