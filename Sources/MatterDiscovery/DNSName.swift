// RFC 1035 §3.1 Name space definitions: a sequence of labels; compared without regard to ASCII case.
public struct DNSName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let labels: [String]

    public init(labels: [String]) {
        self.labels = labels
    }

    /// Splits dotted text ("_matterc._udp.local"); a trailing dot is allowed. Instance names
    /// containing dots must be built with `init(labels:)` or `prepending(_:)` instead.
    public init(_ text: String) {
        let trimmed = text.hasSuffix(".") ? String(text.dropLast()) : text
        labels = trimmed.isEmpty ? [] : trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    public func prepending(_ label: String) -> DNSName {
        DNSName(labels: [label] + labels)
    }

    /// True when `suffix`'s labels end this name ("a._matterc._udp.local" ends in "_matterc._udp.local").
    public func hasSuffix(_ suffix: DNSName) -> Bool {
        guard suffix.labels.count <= labels.count else { return false }
        return zip(labels.suffix(suffix.labels.count), suffix.labels).allSatisfy { Self.fold($0) == Self.fold($1) }
    }

    public var description: String { labels.joined(separator: ".") }

    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        lhs.labels.count == rhs.labels.count && zip(lhs.labels, rhs.labels).allSatisfy { fold($0) == fold($1) }
    }

    public func hash(into hasher: inout Hasher) {
        for label in labels { hasher.combine(Self.fold(label)) }
    }

    /// RFC 1035 §2.3.3 and RFC 6762 §16: only ASCII letters compare case-insensitively.
    static func fold(_ label: String) -> [UInt8] {
        label.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}
