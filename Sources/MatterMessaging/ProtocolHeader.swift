// Matter Core §4.4.3 Protocol Header
/// The header that opens the (for secured messages: encrypted) message payload and routes it to an
/// exchange and protocol.
public struct ProtocolHeader: Sendable, Hashable {
    /// The I flag: sent by the node that started the exchange.
    public var isInitiator: Bool
    /// The R flag: the sender wants an acknowledgement (MRP).
    public var needsAcknowledgement: Bool
    /// The counter this message acknowledges; its presence is the A flag.
    public var acknowledgedMessageCounter: UInt32?
    public var opcode: UInt8
    public var exchangeID: UInt16
    public var protocolID: ProtocolID
    /// The vendor owning `protocolID`; its presence is the V flag. Absent means the Matter standard vendor.
    public var protocolVendorID: UInt16?
    /// The opaque secured extensions block; its presence is the SX flag.
    public var securedExtensions: [UInt8]?

    public init(
        isInitiator: Bool,
        needsAcknowledgement: Bool,
        acknowledgedMessageCounter: UInt32? = nil,
        opcode: UInt8,
        exchangeID: UInt16,
        protocolID: ProtocolID,
        protocolVendorID: UInt16? = nil,
        securedExtensions: [UInt8]? = nil
    ) {
        self.isInitiator = isInitiator
        self.needsAcknowledgement = needsAcknowledgement
        self.acknowledgedMessageCounter = acknowledgedMessageCounter
        self.opcode = opcode
        self.exchangeID = exchangeID
        self.protocolID = protocolID
        self.protocolVendorID = protocolVendorID
        self.securedExtensions = securedExtensions
    }

    /// The Exchange Flags byte as sent.
    public var exchangeFlags: UInt8 {
        var flags: UInt8 = 0
        if isInitiator { flags |= ExchangeFlagBits.initiator }
        if acknowledgedMessageCounter != nil { flags |= ExchangeFlagBits.acknowledgement }
        if needsAcknowledgement { flags |= ExchangeFlagBits.reliability }
        if securedExtensions != nil { flags |= ExchangeFlagBits.securedExtensions }
        if protocolVendorID != nil { flags |= ExchangeFlagBits.vendor }
        return flags
    }

    public func encode() throws(MessageError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(exchangeFlags)
        bytes.append(opcode)
        bytes.appendLittleEndian(exchangeID)
        if let protocolVendorID { bytes.appendLittleEndian(protocolVendorID) }
        bytes.appendLittleEndian(protocolID.rawValue)
        if let acknowledgedMessageCounter { bytes.appendLittleEndian(acknowledgedMessageCounter) }
        if let securedExtensions { try bytes.appendLengthPrefixed(securedExtensions) }
        return bytes
    }

    /// Decodes the header at the start of `bytes`; `headerLength` is where the application payload begins.
    public static func decode(_ bytes: [UInt8]) throws(MessageError) -> (header: ProtocolHeader, headerLength: Int) {
        var reader = ByteReader(bytes)
        let header = try decode(from: &reader)
        return (header, reader.offset)
    }

    static func decode(from reader: inout ByteReader) throws(MessageError) -> ProtocolHeader {
        let flags = try reader.readInteger(UInt8.self)
        let opcode = try reader.readInteger(UInt8.self)
        let exchangeID = try reader.readInteger(UInt16.self)
        var protocolVendorID: UInt16?
        if flags & ExchangeFlagBits.vendor != 0 {
            protocolVendorID = try reader.readInteger(UInt16.self)
        }
        let protocolID = ProtocolID(rawValue: try reader.readInteger(UInt16.self))
        var acknowledgedMessageCounter: UInt32?
        if flags & ExchangeFlagBits.acknowledgement != 0 {
            acknowledgedMessageCounter = try reader.readInteger(UInt32.self)
        }
        var securedExtensions: [UInt8]?
        if flags & ExchangeFlagBits.securedExtensions != 0 {
            securedExtensions = try reader.readLengthPrefixedBytes()
        }
        return ProtocolHeader(
            isInitiator: flags & ExchangeFlagBits.initiator != 0,
            needsAcknowledgement: flags & ExchangeFlagBits.reliability != 0,
            acknowledgedMessageCounter: acknowledgedMessageCounter,
            opcode: opcode,
            exchangeID: exchangeID,
            protocolID: protocolID,
            protocolVendorID: protocolVendorID,
            securedExtensions: securedExtensions
        )
    }
}

// Matter Core §4.4.3.1 Exchange Flags bit layout
enum ExchangeFlagBits {
    static let initiator: UInt8 = 0x01
    static let acknowledgement: UInt8 = 0x02
    static let reliability: UInt8 = 0x04
    static let securedExtensions: UInt8 = 0x08
    static let vendor: UInt8 = 0x10
}
