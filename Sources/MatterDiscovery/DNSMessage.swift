// RFC 1035 §4.1 Message format, with the mDNS rules of RFC 6762 §18.
public struct DNSMessage: Hashable, Sendable {
    /// RFC 6762 §18.1: zero in multicast queries and responses.
    public var id: UInt16
    /// RFC 1035 §4.1.1 header flags: QR, OPCODE, AA, TC, RD, RA, Z, RCODE.
    public var flags: UInt16
    public var questions: [DNSQuestion]
    public var answers: [DNSResourceRecord]
    public var authorities: [DNSResourceRecord]
    public var additionals: [DNSResourceRecord]

    public init(
        id: UInt16 = 0, flags: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSResourceRecord] = [],
        authorities: [DNSResourceRecord] = [], additionals: [DNSResourceRecord] = []
    ) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// RFC 1035 §4.1.1 QR bit.
    public static let responseFlag: UInt16 = 0x8000

    /// RFC 1035 §4.1.1 AA bit; RFC 6762 §18.4: set in every mDNS response.
    public static let authoritativeAnswerFlag: UInt16 = 0x0400
    /// RFC 1035 §4.1.1 OPCODE and RCODE; RFC 6762 §18.3 and §18.11: a message with either nonzero is ignored.
    static let opcodeAndResponseCodeMask: UInt16 = 0x780F

    public var isResponse: Bool { flags & Self.responseFlag != 0 }

    /// Answers, authority and additional records together: mDNS uses all of them as answers (RFC 6762 §12).
    public var allRecords: [DNSResourceRecord] { answers + authorities + additionals }
}

// RFC 1035 §4.1.2 Question section format; RFC 6762 §5.4 QU bit in the top bit of QCLASS.
public struct DNSQuestion: Hashable, Sendable {
    public var name: DNSName
    public var type: DNSRecordType
    /// The class without the QU bit; 1 is IN.
    public var recordClass: UInt16
    /// RFC 6762 §5.4: ask for a unicast reply.
    public var unicastResponse: Bool

    public init(
        name: DNSName, type: DNSRecordType, recordClass: UInt16 = DNSResourceRecord.internetClass,
        unicastResponse: Bool = false
    ) {
        self.name = name
        self.type = type
        self.recordClass = recordClass
        self.unicastResponse = unicastResponse
    }
}

// RFC 1035 §4.1.3 Resource record format; RFC 6762 §10.2 cache-flush bit in the top bit of CLASS.
public struct DNSResourceRecord: Hashable, Sendable {
    public var name: DNSName
    /// The class without the cache-flush bit; 1 is IN.
    public var recordClass: UInt16
    /// RFC 6762 §10.2: this record replaces every cached record of the same name, type and class.
    public var cacheFlush: Bool
    public var ttl: UInt32
    public var data: DNSRecordData

    public init(
        name: DNSName, recordClass: UInt16 = Self.internetClass, cacheFlush: Bool = false, ttl: UInt32,
        data: DNSRecordData
    ) {
        self.name = name
        self.recordClass = recordClass
        self.cacheFlush = cacheFlush
        self.ttl = ttl
        self.data = data
    }

    public var type: DNSRecordType { data.type }

    /// RFC 1035 §3.2.4 class IN.
    public static let internetClass: UInt16 = 1
    /// RFC 1035 §3.2.5 QCLASS `*`: any class.
    public static let anyClass: UInt16 = 255
    /// RFC 6762 §10.2 and §5.4: the top bit of the class field.
    static let topClassBit: UInt16 = 0x8000
}
