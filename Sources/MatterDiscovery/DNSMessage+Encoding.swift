// RFC 1035 §4.1 message layout, with optional §4.1.4 name compression.
extension DNSMessage {
    /// The message's wire bytes. With `compressingNames`, a name (or its tail) written before is
    /// replaced by a pointer, including names inside PTR and SRV data (RFC 6762 §18.14).
    public func encoded(compressingNames: Bool = true) throws(DNSMessageError) -> [UInt8] {
        var writer = DNSWriter(compressing: compressingNames)
        writer.writeUInt16(id)
        writer.writeUInt16(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            writer.writeUInt16(UInt16(clamping: count))
        }
        for question in questions {
            try writer.writeName(question.name)
            writer.writeUInt16(question.type.rawValue)
            writer.writeUInt16(question.recordClass | (question.unicastResponse ? DNSResourceRecord.topClassBit : 0))
        }
        for record in answers + authorities + additionals {
            try writer.writeRecord(record)
        }
        return writer.bytes
    }
}

struct DNSWriter {
    let compressing: Bool
    var bytes: [UInt8] = []
    /// Offsets of names already written, keyed by their case-folded labels.
    private var offsets: [[[UInt8]]: Int] = [:]

    init(compressing: Bool) {
        self.compressing = compressing
    }

    mutating func writeUInt16(_ value: UInt16) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    mutating func writeUInt32(_ value: UInt32) {
        writeUInt16(UInt16(value >> 16))
        writeUInt16(UInt16(value & 0xFFFF))
    }

    mutating func writeName(_ name: DNSName) throws(DNSMessageError) {
        var wireLength = 1
        for label in name.labels {
            guard !label.isEmpty else { throw .emptyLabel(name: name.description) }
            guard label.utf8.count <= DiscoveryLimits.maximumLabelLength else {
                throw .labelTooLong(length: label.utf8.count, offset: bytes.count)
            }
            wireLength += 1 + label.utf8.count
        }
        guard wireLength <= DiscoveryLimits.maximumNameLength else { throw .nameTooLong(offset: bytes.count) }
        let folded = name.labels.map(DNSName.fold)
        for index in folded.indices {
            let suffix = Array(folded[index...])
            if compressing, let offset = offsets[suffix] {
                writeUInt16(0xC000 | UInt16(offset))
                return
            }
            if compressing && bytes.count <= DiscoveryLimits.maximumPointerOffset {
                offsets[suffix] = bytes.count
            }
            let label = Array(name.labels[index].utf8)
            bytes.append(UInt8(label.count))
            bytes += label
        }
        bytes.append(0)
    }

    mutating func writeRecord(_ record: DNSResourceRecord) throws(DNSMessageError) {
        try writeName(record.name)
        writeUInt16(record.type.rawValue)
        writeUInt16(record.recordClass | (record.cacheFlush ? DNSResourceRecord.topClassBit : 0))
        writeUInt32(record.ttl)
        let lengthOffset = bytes.count
        writeUInt16(0)
        switch record.data {
        case .a(let address): bytes += address.bytes
        case .aaaa(let address): bytes += address.bytes
        case .ptr(let name): try writeName(name)
        case .srv(let location):
            writeUInt16(location.priority)
            writeUInt16(location.weight)
            writeUInt16(location.port)
            try writeName(location.target)
        case .txt(let entries):
            // RFC 6763 §6.1: an empty TXT record is a single zero byte.
            if entries.isEmpty { bytes.append(0) }
            for entry in entries {
                let string = entry.encoded
                guard string.count <= DiscoveryLimits.maximumTXTStringLength else {
                    throw .txtStringTooLong(length: string.count)
                }
                bytes.append(UInt8(string.count))
                bytes += string
            }
        case .opaque(_, let data): bytes += data
        }
        let length = bytes.count - lengthOffset - 2
        guard let encodedLength = UInt16(exactly: length) else { throw .recordDataTooLong(length: length) }
        bytes[lengthOffset] = UInt8(encodedLength >> 8)
        bytes[lengthOffset + 1] = UInt8(encodedLength & 0xFF)
    }
}
