// Every limit of the DNS codec and of the discovery machine, with where it comes from.
enum DiscoveryLimits {
    /// RFC 1035 §2.3.4: a label is at most 63 octets (the top two bits of its length byte mark pointers).
    static let maximumLabelLength = 63
    /// RFC 1035 §2.3.4: a name on the wire, length bytes and root included, is at most 255 octets.
    static let maximumNameLength = 255
    /// RFC 1035 §4.1.4: a compression pointer holds a 14-bit offset, so later names cannot point past it.
    static let maximumPointerOffset = 0x3FFF
    /// RFC 6763 §6.1: each TXT string has a one-byte length.
    static let maximumTXTStringLength = 255
    /// RFC 6762 §17: an mDNS packet may be up to 9000 bytes; keep our queries far below the
    /// 1500-byte Ethernet MTU by splitting question lists.
    static let maximumQuestionsPerQuery = 24
    /// RFC 6762 §17 allows up to 9000 bytes, but a response split to fit a 1500-byte Ethernet frame
    /// (less 40 bytes of IPv6 and 8 of UDP header) is never fragmented.
    static let maximumResponseSize = 1452
    /// Matter Core §2.5.6: the discriminator has 12 bits.
    static let maximumDiscriminator: UInt16 = 0xFFF
    /// Matter Core §4.3.1: DN is at most 32 bytes.
    static let maximumDeviceNameLength = 32
    /// Matter Core §4.3.1: RI is at most 100 hex digits.
    static let maximumRotatingIDLength = 100
    /// Matter Core §4.3.1: PI is at most 128 bytes.
    static let maximumPairingInstructionLength = 128
    /// Matter Core §4.3.4: SII and SAI are at most one hour.
    static let maximumSessionIntervalMilliseconds: Int64 = 3_600_000
    /// Matter Core §4.3.4: SAT is at most 65535 ms.
    static let maximumSessionActiveThresholdMilliseconds: Int64 = 65_535
    /// RFC 6762 §3: the mDNS port; a query from any other port comes from a legacy resolver (§6.7).
    static let multicastDNSPort: UInt16 = 5353
}
