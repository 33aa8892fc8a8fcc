// RFC 4291 address, as carried in an AAAA record (RFC 3596 §2.2); printed per RFC 5952.
public struct IPv6Address: Hashable, Sendable, CustomStringConvertible {
    /// Sixteen bytes, network order.
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address as two 64-bit halves (`IPv6Address(0xFF02_0000_0000_0000, 0xFB)` is ff02::fb).
    public init(_ high: UInt64, _ low: UInt64) {
        bytes = (0..<16).map { index in
            UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * (7 - UInt64(index % 8))))
        }
    }

    /// Text such as "ff02::fb" or "fe80::1:2"; no embedded IPv4 form, no zone.
    public init?(_ text: String) {
        guard let halves = Self.splitAtDoubleColon(text) else { return nil }
        func groups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), group.allSatisfy(\.isHexDigit),
                    let value = UInt16(group, radix: 16)
                else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
            all += Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        bytes = all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// RFC 5952 §4: lowercase hex, no leading zeros, the longest run (first if tied) of two or more
    /// zero groups shortened to "::".
    public var description: String {
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        var bestStart = -1, bestLength = 1, runStart = -1
        for index in 0...8 {
            if index < 8 && groups[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength { bestStart = runStart; bestLength = index - runStart }
                runStart = -1
            }
        }
        let text = groups.map { String($0, radix: 16) }
        guard bestStart >= 0 else { return text.joined(separator: ":") }
        return text[..<bestStart].joined(separator: ":") + "::"
            + text[(bestStart + bestLength)...].joined(separator: ":")
    }

    /// The text split at its one "::" (one part when there is none), or nil when it has several.
    private static func splitAtDoubleColon(_ text: String) -> [Substring]? {
        let characters = Array(text)
        var splits: [Int] = []
        var index = 0
        while index + 1 < characters.count {
            if characters[index] == ":" && characters[index + 1] == ":" {
                splits.append(index)
                index += 2
            } else {
                index += 1
            }
        }
        guard let split = splits.first else { return [text[...]] }
        guard splits.count == 1 else { return nil }
        let middle = text.index(text.startIndex, offsetBy: split)
        return [text[..<middle], text[text.index(middle, offsetBy: 2)...]]
    }
}

extension IPv6Address: TextCodableAddress {}

extension IPv6Address {
    /// Matter Core §2.5.6.2: where a group's messages go on a fabric, FF35:0040:FD<fabric ID, 8 bytes>00:<group ID>
    /// (a unicast-prefix-based multicast address on the fabric's ULA prefix). The fabric ID is the fabric's own, not
    /// the compressed one.
    public static func matterGroup(fabricID: UInt64, groupID: UInt16) -> IPv6Address {
        let fabric = (0..<8).map { UInt8(truncatingIfNeeded: fabricID >> (8 * (7 - UInt64($0)))) }
        return IPv6Address(
            bytes: [0xFF, 0x35, 0x00, 0x40, 0xFD] + fabric + [0x00, UInt8(groupID >> 8), UInt8(groupID & 0xFF)])!
    }
}
