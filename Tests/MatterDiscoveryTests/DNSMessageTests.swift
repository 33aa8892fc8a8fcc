import MatterTestSupport
import Testing

@testable import MatterDiscovery

@Suite struct DNSMessageTests {
    /// An mDNS response written by hand from the RFC 1035 §4.1 layout: a PTR for
    /// _matterc._udp.local and an SRV (cache-flush) for its instance, names compressed (§4.1.4).
    static let handWrittenResponse = hex(
        """
        0000 8400 0000 0002 0000 0000
        08 5f6d617474657263 04 5f756470 05 6c6f63616c 00
        000c 0001 00001194 0007
        04 41424344 c00c
        c02b
        0021 8001 00000078 000d
        0000 0000 15a4 04 686f7374 c01a
        """)

    static let handWrittenMessage = DNSMessage(
        flags: 0x8400,
        answers: [
            DNSResourceRecord(name: "_matterc._udp.local", ttl: 4500, data: .ptr("ABCD._matterc._udp.local")),
            DNSResourceRecord(
                name: "ABCD._matterc._udp.local", cacheFlush: true, ttl: 120,
                data: .srv(DNSServiceLocation(port: 5540, target: "host.local"))),
        ]
    )

    @Test func decodesAHandWrittenResponse() throws {
        let message = try DNSMessage(decoding: Self.handWrittenResponse)
        #expect(message == Self.handWrittenMessage)
        #expect(message.isResponse)
    }

    @Test func encodesWithCompressionToTheSameBytes() throws {
        #expect(try Self.handWrittenMessage.encoded() == Self.handWrittenResponse)
    }

    @Test func encodesWithoutCompressionAndReadsBack() throws {
        let plain = try Self.handWrittenMessage.encoded(compressingNames: false)
        #expect(!plain.contains(0xC0))
        #expect(plain.count == Self.handWrittenResponse.count + 19 + 24 + 5)
        #expect(try DNSMessage(decoding: plain) == Self.handWrittenMessage)
    }

    /// RFC 1035 §4.1.4's example: F.ISI.ARPA at offset 20, FOO.F.ISI.ARPA pointing into it at 40, ARPA alone at 64.
    @Test func followsTheRFC1035CompressionExample() throws {
        var bytes = [UInt8](repeating: 0, count: 20)
        bytes += hex("01 46 03 495349 04 41525041 00")
        bytes += [UInt8](repeating: 0, count: 40 - bytes.count)
        bytes += hex("03 464f4f c014")
        bytes += [UInt8](repeating: 0, count: 64 - bytes.count)
        bytes += hex("c01a")
        var reader = DNSReader(bytes: bytes, offset: 40, end: bytes.count)
        #expect(try reader.readName() == "FOO.F.ISI.ARPA")
        #expect(reader.offset == 46)
        reader.offset = 64
        #expect(try reader.readName() == "arpa")
        #expect(reader.offset == 66)
    }

    @Test func keepsTheQUAndCacheFlushBits() throws {
        let message = DNSMessage(
            questions: [DNSQuestion(name: "_matterc._udp.local", type: .ptr, unicastResponse: true)],
            answers: [
                DNSResourceRecord(
                    name: "h.local", cacheFlush: true, ttl: 120, data: .a(try #require(IPv4Address("127.0.0.1"))))
            ]
        )
        let bytes = try message.encoded()
        // QCLASS 0x8001 right after the question name, and CLASS 0x8001 after the record's TYPE.
        #expect(Array(bytes[33...36]) == [0x00, 0x0C, 0x80, 0x01])
        #expect(try DNSMessage(decoding: bytes) == message)
    }

    @Test func roundTripsEveryRecordKind() throws {
        let message = DNSMessage(
            flags: 0x8400,
            answers: [
                DNSResourceRecord(name: "h.local", ttl: 120, data: .aaaa(try #require(IPv6Address("fe80::1")))),
                DNSResourceRecord(
                    name: "i._matterc._udp.local", ttl: 4500,
                    data: .txt([
                        TXTEntry(key: "D", value: "3840"), TXTEntry(key: "PI", value: ""),
                        TXTEntry(key: "flag", value: nil),
                    ])),
                DNSResourceRecord(
                    name: "h.local", ttl: 1, data: .opaque(type: DNSRecordType(rawValue: 47), bytes: [1, 2, 3])),
            ],
            additionals: [DNSResourceRecord(name: "h.local", ttl: 120, data: .a(try #require(IPv4Address("10.0.0.2"))))]
        )
        #expect(try DNSMessage(decoding: message.encoded()) == message)
    }

    @Test func readsTXTStringsPerRFC6763() throws {
        // "D=3840", "T" (boolean), "=x" (no key: skipped), "" (skipped), "PI=".
        var bytes = hex("0000 8400 0000 0001 0000 0000 01 69 00 0010 0001 00000078")
        let data = hex("06 443d33383430 01 54 02 3d78 00 03 50493d")
        bytes += [0, UInt8(data.count)] + data
        let record = try #require(try DNSMessage(decoding: bytes).answers.first)
        #expect(
            record.data
                == .txt([
                    TXTEntry(key: "D", value: "3840"), TXTEntry(key: "T", value: nil), TXTEntry(key: "PI", value: ""),
                ]))
        #expect(
            try DNSMessage(flags: 0x8400, answers: [DNSResourceRecord(name: "i", ttl: 1, data: .txt([]))]).encoded()
                .suffix(3) == [0, 1, 0])
    }

    // MARK: Malformed input

    private static let header = hex("0000 8400 0001 0000 0000 0000")

    private static func question(_ name: [UInt8]) -> [UInt8] { header + name + [0, 12, 0, 1] }

    @Test func refusesATruncatedHeader() {
        #expect(throws: DNSMessageError.truncated(needed: 2, offset: 10, remaining: 1)) {
            try DNSMessage(decoding: Array(Self.header.prefix(11)))
        }
        #expect(
            DNSMessageError.truncated(needed: 4, offset: 12, remaining: 2).description
                == "truncated: needed 4 bytes at offset 12, 2 left")
    }

    @Test func refusesAPointerToItself() {
        #expect(throws: DNSMessageError.pointerLoop(target: 12, offset: 12)) {
            try DNSMessage(decoding: Self.question([0xC0, 0x0C]))
        }
    }

    @Test func refusesAPointerLoopThroughALabel() {
        #expect(throws: DNSMessageError.pointerLoop(target: 12, offset: 14)) {
            try DNSMessage(decoding: Self.question([0x01, 0x61, 0xC0, 0x0C]))
        }
    }

    @Test func refusesAForwardPointer() {
        #expect(throws: DNSMessageError.forwardPointer(target: 0x20, offset: 12)) {
            try DNSMessage(decoding: Self.question([0xC0, 0x20]))
        }
    }

    @Test func refusesALabelLongerThan63() {
        let name = [UInt8(64)] + [UInt8](repeating: 0x61, count: 64) + [0]
        #expect(throws: DNSMessageError.labelTooLong(length: 64, offset: 12)) {
            try DNSMessage(decoding: Self.question(name))
        }
        #expect(throws: DNSMessageError.labelTooLong(length: 0x80, offset: 12)) {
            try DNSMessage(decoding: Self.question([0x80, 0]))
        }
    }

    @Test func refusesANameLongerThan255() {
        let label = [UInt8(63)] + [UInt8](repeating: 0x61, count: 63)
        #expect(throws: DNSMessageError.nameTooLong(offset: 12)) {
            try DNSMessage(decoding: Self.question(label + label + label + label + [0]))
        }
    }

    @Test func refusesANameMissingItsEnd() {
        #expect(throws: DNSMessageError.truncated(needed: 5, offset: 13, remaining: 2)) {
            try DNSMessage(decoding: Self.header + [0x05, 0x61, 0x62])
        }
    }

    @Test func refusesBadRecordData() {
        let record = hex("0000 8400 0000 0001 0000 0000 01 68 00 0001 0001 00000078 0003 7f0000")
        #expect(
            throws: DNSMessageError.invalidRecordData(type: .a, length: 3, offset: 25, reason: "an address is 4 bytes")
        ) {
            try DNSMessage(decoding: record)
        }
        let txt = hex("0000 8400 0000 0001 0000 0000 01 68 00 0010 0001 00000078 0002 05 61")
        #expect(
            throws: DNSMessageError.invalidRecordData(
                type: .txt, length: 2, offset: 25, reason: "string of 5 bytes at offset 25 runs past the record")
        ) {
            try DNSMessage(decoding: txt)
        }
        let ptr = hex("0000 8400 0000 0001 0000 0000 01 68 00 000c 0001 00000078 0003 00 6162")
        #expect(
            throws: DNSMessageError.invalidRecordData(
                type: .ptr, length: 3, offset: 25, reason: "2 bytes after the name")
        ) {
            try DNSMessage(decoding: ptr)
        }
        let short = hex("0000 8400 0000 0001 0000 0000 01 68 00 0001 0001 00000078 0004 7f00")
        #expect(throws: DNSMessageError.truncated(needed: 4, offset: 25, remaining: 2)) {
            try DNSMessage(decoding: short)
        }
    }

    @Test func refusesToEncodeBadNames() {
        let long = String(repeating: "a", count: 64)
        #expect(throws: DNSMessageError.labelTooLong(length: 64, offset: 12)) {
            try DNSMessage(questions: [DNSQuestion(name: DNSName(labels: [long]), type: .a)]).encoded()
        }
        let label = String(repeating: "a", count: 63)
        #expect(throws: DNSMessageError.nameTooLong(offset: 12)) {
            try DNSMessage(questions: [DNSQuestion(name: DNSName(labels: [label, label, label, label]), type: .a)])
                .encoded()
        }
        #expect(throws: DNSMessageError.emptyLabel(name: "a..local")) {
            try DNSMessage(questions: [DNSQuestion(name: "a..local", type: .a)]).encoded()
        }
    }
}
