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
}
