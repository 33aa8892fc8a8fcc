// Matter Core §11.22 Bulk Data Exchange (protocol ID 0x0002): its messages (§11.22.6), little-endian, as
// connectedhomeip's BdxMessages reads and writes them. No I/O: bytes in, values out, and back.

/// §11.22.6: each message's opcode.
public enum BDXOpcode: UInt8, Sendable, Hashable {
    case sendInit = 0x01
    case sendAccept = 0x02
    case receiveInit = 0x04
    case receiveAccept = 0x05
    case blockQuery = 0x10
    case block = 0x11
    case blockEOF = 0x12
    case blockAck = 0x13
    case blockAckEOF = 0x14
    case blockQueryWithSkip = 0x15
}

/// §11.22.6.1 Transfer Control: the drive modes proposed (an init) or chosen (an accept), beside the version.
public struct BDXTransferControl: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x70 }

    public static let senderDrive = BDXTransferControl(rawValue: 0x10)
    public static let receiverDrive = BDXTransferControl(rawValue: 0x20)
    public static let asynchronous = BDXTransferControl(rawValue: 0x40)
}

/// §11.22.6.1 Range Control's bits, and the fields it governs: what ReceiveInit, SendInit and ReceiveAccept begin
/// with (Transfer Control, Range Control, Max Block Size, then the offset and the length when present, four bytes
/// each unless one needs eight).
enum BDXRangeControl {
    static let definiteLength: UInt8 = 0x01
    static let startOffset: UInt8 = 0x02
    static let wideRange: UInt8 = 0x10

    static func encoded(control: UInt8, maxBlockSize: UInt16, startOffset: UInt64, length: UInt64) -> [UInt8] {
        let wide = startOffset > UInt64(UInt32.max) || length > UInt64(UInt32.max)
        var range: UInt8 = 0
        if length > 0 { range |= definiteLength }
        if startOffset > 0 { range |= Self.startOffset }
        if wide { range |= wideRange }
        var bytes = [control, range] + BDXBytes.little(UInt64(maxBlockSize), 2)
        if startOffset > 0 { bytes += BDXBytes.little(startOffset, wide ? 8 : 4) }
        if length > 0 { bytes += BDXBytes.little(length, wide ? 8 : 4) }
        return bytes
    }

    static func decode(
        _ reader: inout BDXBytes.Reader
    ) throws(BDXError) -> (control: UInt8, maxBlockSize: UInt16, startOffset: UInt64, length: UInt64) {
        let control = try reader.byte()
        let range = try reader.byte()
        let maxBlockSize = UInt16(try reader.little(2))
        let width = range & wideRange != 0 ? 8 : 4
        let offset = range & startOffset != 0 ? try reader.little(width) : 0
        let length = range & definiteLength != 0 ? try reader.little(width) : 0
        return (control, maxBlockSize, offset, length)
    }
}

/// The version this side speaks: BDX 0, as connectedhomeip's (kBdxVersion).
public let bdxVersion: UInt8 = 0

/// SendInit and ReceiveInit (§11.22.6.2, §11.22.6.4): the initiator's proposal.
public struct BDXTransferInit: Sendable, Hashable {
    public var version: UInt8
    public var proposedControl: BDXTransferControl
    public var maxBlockSize: UInt16
    /// Where in the file the transfer starts (0: the beginning; more resumes).
    public var startOffset: UInt64
    /// The most to transfer; 0: no limit stated.
    public var maxLength: UInt64
    /// Which file (an OTA image's designator from its `bdx://` URI).
    public var fileDesignator: [UInt8]
    public var metadata: [UInt8]

    public init(
        version: UInt8 = bdxVersion, proposedControl: BDXTransferControl, maxBlockSize: UInt16,
        startOffset: UInt64 = 0, maxLength: UInt64 = 0, fileDesignator: [UInt8], metadata: [UInt8] = []
    ) {
        self.version = version
        self.proposedControl = proposedControl
        self.maxBlockSize = maxBlockSize
        self.startOffset = startOffset
        self.maxLength = maxLength
        self.fileDesignator = fileDesignator
        self.metadata = metadata
    }

    public var encoded: [UInt8] {
        BDXRangeControl.encoded(
            control: version & 0x0F | proposedControl.rawValue, maxBlockSize: maxBlockSize, startOffset: startOffset,
            length: maxLength) + BDXBytes.little(UInt64(fileDesignator.count), 2) + fileDesignator + metadata
    }

    public init(decoding bytes: [UInt8]) throws(BDXError) {
        var reader = BDXBytes.Reader(bytes)
        let fields = try BDXRangeControl.decode(&reader)
        version = fields.control & 0x0F
        proposedControl = BDXTransferControl(rawValue: fields.control)
        (maxBlockSize, startOffset, maxLength) = (fields.maxBlockSize, fields.startOffset, fields.length)
        let designatorLength = Int(try reader.little(2))
        fileDesignator = try reader.take(designatorLength)
        metadata = reader.rest
    }
}

/// SendAccept (§11.22.6.3): the receiver's choice when the sender initiated.
public struct BDXSendAccept: Sendable, Hashable {
    public var version: UInt8
    public var control: BDXTransferControl
    public var maxBlockSize: UInt16
    public var metadata: [UInt8]

    public init(version: UInt8 = bdxVersion, control: BDXTransferControl, maxBlockSize: UInt16, metadata: [UInt8] = [])
    {
        self.version = version
        self.control = control
        self.maxBlockSize = maxBlockSize
        self.metadata = metadata
    }

    public var encoded: [UInt8] {
        [version & 0x0F | control.rawValue] + BDXBytes.little(UInt64(maxBlockSize), 2) + metadata
    }

    public init(decoding bytes: [UInt8]) throws(BDXError) {
        var reader = BDXBytes.Reader(bytes)
        let control = try reader.byte()
        version = control & 0x0F
        self.control = BDXTransferControl(rawValue: control)
        maxBlockSize = UInt16(try reader.little(2))
        metadata = reader.rest
    }
}

/// ReceiveAccept (§11.22.6.5): the sender's choice when the receiver initiated (an OTA requestor's download).
public struct BDXReceiveAccept: Sendable, Hashable {
    public var version: UInt8
    public var control: BDXTransferControl
    public var maxBlockSize: UInt16
    public var startOffset: UInt64
    /// The transfer's length; 0: not stated.
    public var length: UInt64
    public var metadata: [UInt8]

    public init(
        version: UInt8 = bdxVersion, control: BDXTransferControl, maxBlockSize: UInt16, startOffset: UInt64 = 0,
        length: UInt64 = 0, metadata: [UInt8] = []
    ) {
        self.version = version
        self.control = control
        self.maxBlockSize = maxBlockSize
        self.startOffset = startOffset
        self.length = length
        self.metadata = metadata
    }

    public var encoded: [UInt8] {
        BDXRangeControl.encoded(
            control: version & 0x0F | control.rawValue, maxBlockSize: maxBlockSize, startOffset: startOffset,
            length: length) + metadata
    }

    public init(decoding bytes: [UInt8]) throws(BDXError) {
        var reader = BDXBytes.Reader(bytes)
        let fields = try BDXRangeControl.decode(&reader)
        version = fields.control & 0x0F
        control = BDXTransferControl(rawValue: fields.control)
        (maxBlockSize, startOffset, length) = (fields.maxBlockSize, fields.startOffset, fields.length)
        metadata = reader.rest
    }
}

/// A BDX message, by its opcode.
public enum BDXMessage: Sendable, Hashable {
    case sendInit(BDXTransferInit)
    case sendAccept(BDXSendAccept)
    case receiveInit(BDXTransferInit)
    case receiveAccept(BDXReceiveAccept)
    /// §11.22.6.6: the receiver asks for the block after `counter` − 1.
    case blockQuery(counter: UInt32)
    /// §11.22.6.7 and §11.22.6.8: a block of data, the last one for BlockEOF.
    case block(counter: UInt32, data: [UInt8])
    case blockEOF(counter: UInt32, data: [UInt8])
    /// §11.22.6.9 and §11.22.6.10.
    case blockAck(counter: UInt32)
    case blockAckEOF(counter: UInt32)
    /// §11.22.6.11: a query that skips `bytesToSkip` bytes first.
    case blockQueryWithSkip(counter: UInt32, bytesToSkip: UInt64)

    public var opcode: BDXOpcode {
        switch self {
        case .sendInit: .sendInit
        case .sendAccept: .sendAccept
        case .receiveInit: .receiveInit
        case .receiveAccept: .receiveAccept
        case .blockQuery: .blockQuery
        case .block: .block
        case .blockEOF: .blockEOF
        case .blockAck: .blockAck
        case .blockAckEOF: .blockAckEOF
        case .blockQueryWithSkip: .blockQueryWithSkip
        }
    }

    public var payload: [UInt8] {
        switch self {
        case .sendInit(let initiation), .receiveInit(let initiation): initiation.encoded
        case .sendAccept(let accept): accept.encoded
        case .receiveAccept(let accept): accept.encoded
        case .blockQuery(let counter), .blockAck(let counter), .blockAckEOF(let counter):
            BDXBytes.little(UInt64(counter), 4)
        case .block(let counter, let data), .blockEOF(let counter, let data): BDXBytes.little(UInt64(counter), 4) + data
        case .blockQueryWithSkip(let counter, let skip):
            BDXBytes.little(UInt64(counter), 4) + BDXBytes.little(skip, 8)
        }
    }

    /// Reads a message of `opcode` (a BDX protocol header's) from its payload.
    public init(opcode: UInt8, payload: [UInt8]) throws(BDXError) {
        guard let known = BDXOpcode(rawValue: opcode) else { throw .unknownOpcode(opcode) }
        var reader = BDXBytes.Reader(payload)
        switch known {
        case .sendInit: self = .sendInit(try BDXTransferInit(decoding: payload))
        case .receiveInit: self = .receiveInit(try BDXTransferInit(decoding: payload))
        case .sendAccept: self = .sendAccept(try BDXSendAccept(decoding: payload))
        case .receiveAccept: self = .receiveAccept(try BDXReceiveAccept(decoding: payload))
        case .blockQuery: self = .blockQuery(counter: UInt32(try reader.little(4)))
        case .blockAck: self = .blockAck(counter: UInt32(try reader.little(4)))
        case .blockAckEOF: self = .blockAckEOF(counter: UInt32(try reader.little(4)))
        case .block: self = .block(counter: UInt32(try reader.little(4)), data: reader.rest)
        case .blockEOF: self = .blockEOF(counter: UInt32(try reader.little(4)), data: reader.rest)
        case .blockQueryWithSkip:
            self = .blockQueryWithSkip(counter: UInt32(try reader.little(4)), bytesToSkip: try reader.little(8))
        }
    }
}

/// §11.22.5 and Appendix: the status codes a BDX StatusReport carries (protocol 0x0002).
public enum BDXStatus: UInt16, Sendable, Hashable {
    case lengthTooLarge = 0x0012
    case lengthTooShort = 0x0013
    case lengthMismatch = 0x0014
    case lengthRequired = 0x0015
    case badMessageContents = 0x0016
    case badBlockCounter = 0x0017
    case unexpectedMessage = 0x0018
    case responderBusy = 0x0019
    case transferFailedUnknownError = 0x001F
    case transferMethodNotSupported = 0x0050
    case fileDesignatorUnknown = 0x0051
    case startOffsetNotSupported = 0x0052
    case versionNotSupported = 0x0053
    case unknown = 0x005F
}

/// Why a BDX message could not be read.
public enum BDXError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownOpcode(UInt8)
    case truncated(needed: Int, had: Int)

    public var description: String {
        switch self {
        case .unknownOpcode(let opcode): "BDX opcode 0x\(String(opcode, radix: 16)) is none of §11.22.6's"
        case .truncated(let needed, let had): "a BDX message cut short: \(needed) bytes needed, \(had) left"
        }
    }
}

/// Little-endian fields.
enum BDXBytes {
    static func little(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    struct Reader {
        private let bytes: [UInt8]
        private var offset = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func take(_ count: Int) throws(BDXError) -> [UInt8] {
            guard bytes.count - offset >= count else { throw .truncated(needed: count, had: bytes.count - offset) }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func byte() throws(BDXError) -> UInt8 { try take(1)[0] }

        mutating func little(_ count: Int) throws(BDXError) -> UInt64 {
            try take(count).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }

        var rest: [UInt8] { Array(bytes[offset...]) }
    }
}
