/// RFC 6455 §5.2 base framing: the opcodes, the close codes, and the frames each side sends (a server's never masked,
/// a client's always, §5.1).
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    var isControl: Bool { rawValue & 0x8 != 0 }
}

/// §7.4.1 status codes this side sends, and which received ones are valid.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let normal = WebSocketCloseCode(rawValue: 1000)
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// May a peer send it in a Close frame? 1004–1006 and 1015 are never sent; 1016–2999 are unassigned; 3000–4999
    /// are for applications.
    var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var description: String { "\(rawValue)" }
}

public enum WebSocketFrame {
    /// One unfragmented frame: FIN set, the shortest length form; a client's masked with its 4-byte `mask` (§5.3).
    public static func encode(_ opcode: WebSocketOpcode, _ payload: [UInt8], mask: [UInt8]? = nil) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode.rawValue]
        frame.reserveCapacity(payload.count + 14)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case 0...125:
            frame.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF:
            frame.append(maskBit | 126)
            frame.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        default:
            frame.append(maskBit | 127)
            let length = UInt64(payload.count)
            frame.append(contentsOf: (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) })
        }
        guard let mask else {
            frame.append(contentsOf: payload)
            return frame
        }
        precondition(mask.count == 4, "a masking key is 4 bytes")
        frame.append(contentsOf: mask)
        frame.append(contentsOf: payload.enumerated().map { $1 ^ mask[$0 & 3] })
        return frame
    }

    /// A server's Close frame: the code, then the reason cut to what fits a control frame.
    public static func close(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        encode(.close, closePayload(code, reason: reason))
    }

    /// A Close frame's payload: the code, then the reason cut to what fits a control frame.
    static func closePayload(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var reasonBytes = Array(reason.utf8)
        let room = HTTPWebSocketLimits.controlPayloadBytes - 2
        if reasonBytes.count > room {
            // Cut on a character boundary so the reason stays UTF-8.
            var cut = String(decoding: reasonBytes.prefix(room), as: UTF8.self)
            while cut.utf8.count > room || cut.last == "\u{FFFD}" { cut.removeLast() }
            reasonBytes = Array(cut.utf8)
        }
        return [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + reasonBytes
    }
}
