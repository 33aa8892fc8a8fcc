// RFC 1035 §4.1 message parsing, with §4.1.4 name compression followed safely.
extension DNSMessage {
    /// Reads one message. Malformed input throws a `DNSMessageError`; bytes after the last record are ignored.
    public init(decoding bytes: [UInt8]) throws(DNSMessageError) {
        var reader = DNSReader(bytes: bytes, end: bytes.count)
        id = try reader.readUInt16()
        flags = try reader.readUInt16()
        let questionCount = Int(try reader.readUInt16())
        let answerCount = Int(try reader.readUInt16())
        let authorityCount = Int(try reader.readUInt16())
        let additionalCount = Int(try reader.readUInt16())
        // Each loop reads at least five bytes per item or throws, so the counts cannot make it spin.
        questions = []
        for _ in 0..<questionCount { questions.append(try reader.readQuestion()) }
        answers = try reader.readRecords(answerCount)
        authorities = try reader.readRecords(authorityCount)
        additionals = try reader.readRecords(additionalCount)
    }
}

/// A cursor over one message, reading up to `end`; names may point anywhere earlier in the same bytes.
struct DNSReader {
    let bytes: [UInt8]
    var offset = 0
    /// Where reading stops: the message's end, or a record's data end while reading inside it.
    var end: Int

    mutating func readBytes(_ count: Int) throws(DNSMessageError) -> ArraySlice<UInt8> {
        guard count <= end - offset else {
            throw .truncated(needed: count, offset: offset, remaining: end - offset)
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func readUInt8() throws(DNSMessageError) -> UInt8 {
        try readBytes(1).first ?? 0
    }

    mutating func readUInt16() throws(DNSMessageError) -> UInt16 {
        let slice = try readBytes(2)
        return UInt16(slice[slice.startIndex]) << 8 | UInt16(slice[slice.startIndex + 1])
    }

    mutating func readUInt32() throws(DNSMessageError) -> UInt32 {
        UInt32(try readUInt16()) << 16 | UInt32(try readUInt16())
    }

    /// RFC 1035 §4.1.4: a name is labels ending in a zero byte or in a pointer to an earlier name.
    /// Each pointer must point before the start of the labels read so far, so the walk always
    /// moves backwards and ends; the 255-byte limit bounds the labels collected.
    mutating func readName() throws(DNSMessageError) -> DNSName {
        let start = offset
        // Labels after a pointer lie before the current name, so they cannot reach past `end` either.
        var labels: [String] = []
        var wireLength = 1
        var position = offset
        var segmentStart = offset
        var resumeOffset: Int?
        while true {
            guard position < end else {
                throw .truncated(needed: 1, offset: position, remaining: 0)
            }
            let length = bytes[position]
            switch length & 0xC0 {
            case 0xC0:
                guard position + 1 < end else {
                    throw .truncated(needed: 2, offset: position, remaining: end - position)
                }
                let target = Int(length & 0x3F) << 8 | Int(bytes[position + 1])
                if target > position { throw .forwardPointer(target: target, offset: position) }
                if target >= segmentStart { throw .pointerLoop(target: target, offset: position) }
                if resumeOffset == nil { resumeOffset = position + 2 }
                position = target
                segmentStart = target
            case 0x00:
                if length == 0 {
                    offset = resumeOffset ?? position + 1
                    return DNSName(labels: labels)
                }
                let count = Int(length)
                guard count <= end - position - 1 else {
                    throw .truncated(needed: count, offset: position + 1, remaining: end - position - 1)
                }
                wireLength += 1 + count
                guard wireLength <= DiscoveryLimits.maximumNameLength else { throw .nameTooLong(offset: start) }
                labels.append(String(decoding: bytes[(position + 1)...(position + count)], as: UTF8.self))
                position += 1 + count
            default:
                // Length bytes 64…191 (prefixes 0x40 and 0x80) are reserved label types, never plain labels.
                throw .labelTooLong(length: Int(length), offset: position)
            }
        }
    }

    mutating func readQuestion() throws(DNSMessageError) -> DNSQuestion {
        let name = try readName()
        let type = DNSRecordType(rawValue: try readUInt16())
        let rawClass = try readUInt16()
        return DNSQuestion(
            name: name, type: type, recordClass: rawClass & ~DNSResourceRecord.topClassBit,
            unicastResponse: rawClass & DNSResourceRecord.topClassBit != 0
        )
    }

    mutating func readRecords(_ count: Int) throws(DNSMessageError) -> [DNSResourceRecord] {
        var records: [DNSResourceRecord] = []
        for _ in 0..<count { records.append(try readRecord()) }
        return records
    }

    mutating func readRecord() throws(DNSMessageError) -> DNSResourceRecord {
        let name = try readName()
        let type = DNSRecordType(rawValue: try readUInt16())
        let rawClass = try readUInt16()
        let ttl = try readUInt32()
        let length = Int(try readUInt16())
        let dataStart = offset
        let slice = try readBytes(length)
        let data = try readRecordData(type: type, slice: slice, start: dataStart)
        return DNSResourceRecord(
            name: name, recordClass: rawClass & ~DNSResourceRecord.topClassBit,
            cacheFlush: rawClass & DNSResourceRecord.topClassBit != 0, ttl: ttl, data: data
        )
    }

    /// RDATA of the types DNS-SD uses; names inside it may be compressed (RFC 6762 §18.14) but must end inside it.
    private func readRecordData(
        type: DNSRecordType, slice: ArraySlice<UInt8>, start: Int
    ) throws(DNSMessageError) -> DNSRecordData {
        func invalid(_ reason: String) -> DNSMessageError {
            .invalidRecordData(type: type, length: slice.count, offset: start, reason: reason)
        }
        let end = start + slice.count
        switch type {
        case .a:
            guard let address = IPv4Address(bytes: Array(slice)) else { throw invalid("an address is 4 bytes") }
            return .a(address)
        case .aaaa:
            guard let address = IPv6Address(bytes: Array(slice)) else { throw invalid("an address is 16 bytes") }
            return .aaaa(address)
        case .ptr:
            var inner = DNSReader(bytes: bytes, offset: start, end: end)
            let name = try inner.readName()
            guard inner.offset == end else { throw invalid("\(end - inner.offset) bytes after the name") }
            return .ptr(name)
        case .srv:
            var inner = DNSReader(bytes: bytes, offset: start, end: end)
            let priority = try inner.readUInt16()
            let weight = try inner.readUInt16()
            let port = try inner.readUInt16()
            let target = try inner.readName()
            guard inner.offset == end else { throw invalid("\(end - inner.offset) bytes after the target") }
            return .srv(DNSServiceLocation(priority: priority, weight: weight, port: port, target: target))
        case .txt:
            var entries: [TXTEntry] = []
            var position = slice.startIndex
            while position < slice.endIndex {
                let length = Int(slice[position])
                guard length <= slice.endIndex - position - 1 else {
                    throw invalid("string of \(length) bytes at offset \(position) runs past the record")
                }
                // RFC 6763 §6.1: a lone zero byte is an empty TXT record; §6.4: skip strings without a key.
                let string = slice[(position + 1)..<(position + 1 + length)]
                if !string.isEmpty && string.first != UInt8(ascii: "=") { entries.append(TXTEntry(string: string)) }
                position += 1 + length
            }
            return .txt(entries)
        default:
            return .opaque(type: type, bytes: Array(slice))
        }
    }
}
