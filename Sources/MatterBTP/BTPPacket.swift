// Matter Core §4.19.3 BTP packet formats: the header flags, data packets, and the handshake's capabilities request
// and response.

/// The flags byte that starts every BTP packet (§4.19.3.2).
public struct BTPFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// B: the first segment of a message; its length follows the sequence number.
    public static let beginning = BTPFlags(rawValue: 0x01)
    /// C: a segment after the first.
    public static let continuing = BTPFlags(rawValue: 0x02)
    /// E: the last segment of a message.
    public static let ending = BTPFlags(rawValue: 0x04)
    /// A: an acknowledgement number follows the flags (or the management opcode).
    public static let acknowledgement = BTPFlags(rawValue: 0x08)
    /// M: a management opcode follows the flags (the handshake only).
    public static let management = BTPFlags(rawValue: 0x20)
    /// H: a handshake packet.
    public static let handshake = BTPFlags(rawValue: 0x40)
}

/// One BTP data packet (§4.19.3.3): `flags | [ack] | seq | [message length LE16 if B] | payload`. A packet with
/// none of B, C and E carries only its acknowledgement (a standalone acknowledgement) or nothing at all.
public struct BTPPacket: Sendable, Hashable {
    public var flags: BTPFlags
    public var acknowledged: UInt8?
    public var sequence: UInt8
    /// The whole message's length, on its first segment.
    public var messageLength: UInt16?
    public var payload: [UInt8]

    public init(
        flags: BTPFlags, acknowledged: UInt8? = nil, sequence: UInt8, messageLength: UInt16? = nil,
        payload: [UInt8] = []
    ) {
        self.flags = flags
        self.acknowledged = acknowledged
        self.sequence = sequence
        self.messageLength = messageLength
        self.payload = payload
    }

    /// Whether the packet carries a segment of a message.
    public var carriesData: Bool { !flags.isDisjoint(with: [.beginning, .continuing, .ending]) }

    /// Reads a data packet: the fields its flags announce must be there; a handshake or management packet is refused
    /// (the handshake is over once data flows).
    public init(decoding bytes: some Collection<UInt8>) throws(BTPError) {
        var reader = Array(bytes)[...]
        guard let first = reader.popFirst() else { throw .malformedPacket("an empty packet") }
        let flags = BTPFlags(rawValue: first)
        guard flags.isDisjoint(with: [.handshake, .management]), first & 0x90 == 0 else {
            throw .malformedPacket("flags 0x\(String(first, radix: 16)) are not those of a data packet")
        }
        var acknowledged: UInt8?
        if flags.contains(.acknowledgement) {
            guard let ack = reader.popFirst() else { throw .malformedPacket("the acknowledgement number is missing") }
            acknowledged = ack
        }
        guard let sequence = reader.popFirst() else { throw .malformedPacket("the sequence number is missing") }
        var messageLength: UInt16?
        if flags.contains(.beginning) {
            guard reader.count >= 2 else { throw .malformedPacket("the message length is missing") }
            messageLength = UInt16(reader.removeFirst()) | UInt16(reader.removeFirst()) << 8
        }
        self.init(
            flags: flags, acknowledged: acknowledged, sequence: sequence, messageLength: messageLength,
            payload: Array(reader))
    }

    public var encoded: [UInt8] {
        var bytes = [flags.rawValue]
        if let acknowledged { bytes.append(acknowledged) }
        bytes.append(sequence)
        if let messageLength { bytes += [UInt8(messageLength & 0xFF), UInt8(messageLength >> 8)] }
        return bytes + payload
    }
}

/// The handshake's two packets (§4.19.4.2), which start with the handshake flags and management opcode 0x6C.
public enum BTPHandshake {
    /// H | M | E | B, then the management opcode of the handshake.
    static let prefix: [UInt8] = [0x65, 0x6C]

    /// The central's capabilities request, written to C1: the versions it speaks, its ATT MTU (0: not known) and the
    /// window it offers.
    public struct Request: Sendable, Hashable {
        /// Most preferred first; up to eight.
        public var versions: [UInt8]
        public var attMTU: UInt16
        public var window: UInt8

        public init(versions: [UInt8] = [BTPConstants.version], attMTU: UInt16, window: UInt8) {
            self.versions = versions
            self.attMTU = attMTU
            self.window = window
        }

        /// 9 bytes: the prefix, eight 4-bit versions (each byte's low nibble first; 0 ends the list), the MTU
        /// little-endian, the window.
        public var encoded: [UInt8] {
            var nibbles = [UInt8](repeating: 0, count: 4)
            for (index, version) in versions.prefix(8).enumerated() {
                nibbles[index / 2] |= (version & 0x0F) << (index % 2 == 0 ? 0 : 4)
            }
            return Self.prefixBytes + nibbles + [UInt8(attMTU & 0xFF), UInt8(attMTU >> 8), window]
        }

        private static let prefixBytes = BTPHandshake.prefix

        public init(decoding bytes: [UInt8]) throws(BTPError) {
            guard bytes.count == 9, Array(bytes.prefix(2)) == BTPHandshake.prefix else {
                throw .malformedPacket("a capabilities request is 9 bytes starting 65 6C")
            }
            var versions: [UInt8] = []
            for index in 0..<8 {
                let version = (bytes[2 + index / 2] >> (index % 2 == 0 ? 0 : 4)) & 0x0F
                if version == 0 { break }
                versions.append(version)
            }
            self.init(versions: versions, attMTU: UInt16(bytes[6]) | UInt16(bytes[7]) << 8, window: bytes[8])
        }
    }

    /// The peripheral's capabilities response, indicated on C2: the version, segment size and window chosen.
    public struct Response: Sendable, Hashable {
        public var version: UInt8
        public var segmentSize: UInt16
        public var window: UInt8

        public init(version: UInt8, segmentSize: UInt16, window: UInt8) {
            self.version = version
            self.segmentSize = segmentSize
            self.window = window
        }

        /// 6 bytes: the prefix, the version (low nibble), the segment size little-endian, the window.
        public var encoded: [UInt8] {
            BTPHandshake.prefix + [version & 0x0F, UInt8(segmentSize & 0xFF), UInt8(segmentSize >> 8), window]
        }

        public init(decoding bytes: [UInt8]) throws(BTPError) {
            guard bytes.count == 6, Array(bytes.prefix(2)) == BTPHandshake.prefix else {
                throw .malformedPacket("a capabilities response is 6 bytes starting 65 6C")
            }
            self.init(
                version: bytes[2] & 0x0F, segmentSize: UInt16(bytes[3]) | UInt16(bytes[4]) << 8, window: bytes[5])
        }
    }
}

/// Why a BTP connection failed; each ends the connection (BTP neither retransmits nor reorders: §4.19.4).
public enum BTPError: Error, Sendable, Hashable, CustomStringConvertible {
    case malformedPacket(String)
    /// The peer speaks no version this side does.
    case incompatibleVersion(offered: [UInt8])
    case unusableSegmentSize(Int)
    case unexpectedSequenceNumber(expected: UInt8, received: UInt8)
    /// An acknowledgement of nothing sent, or of something already acknowledged.
    case invalidAcknowledgement(UInt8)
    /// A segment out of place: a first segment in the middle of a message, a later one with no message begun, a
    /// message whose segments do not add up to its length.
    case reassembly(String)
    case messageTooLarge(Int)
    case handshakeTimedOut
    case acknowledgementTimedOut
    case idle
    /// This side closed the connection.
    case closed
    /// The BLE link under BTP went away: the peripheral disconnected, or the proxy carrying it did.
    case linkLost(String)

    public var description: String {
        switch self {
        case .malformedPacket(let reason): "malformed BTP packet: \(reason)"
        case .incompatibleVersion(let offered):
            "the peer offers BTP versions \(offered.map(String.init).joined(separator: ", ")); this side speaks 4"
        case .unusableSegmentSize(let size): "a BTP segment size of \(size) bytes is below the minimum of 20"
        case .unexpectedSequenceNumber(let expected, let received):
            "BTP sequence number \(received) where \(expected) was due"
        case .invalidAcknowledgement(let number): "BTP acknowledgement \(number) of nothing unacknowledged"
        case .reassembly(let reason): "BTP reassembly: \(reason)"
        case .messageTooLarge(let size): "a message of \(size) bytes is more than BTP carries (65535)"
        case .handshakeTimedOut: "no BTP handshake response within \(BTPConstants.handshakeTimeout)"
        case .acknowledgementTimedOut: "no BTP acknowledgement within \(BTPConstants.acknowledgementTimeout)"
        case .idle: "the BTP connection was idle for \(BTPConstants.idleTimeout)"
        case .closed: "the BTP connection was closed"
        case .linkLost(let reason): "the Bluetooth LE link was lost: \(reason)"
        }
    }
}
