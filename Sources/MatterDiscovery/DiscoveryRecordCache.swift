/// The DNS-SD records heard during one discovery, merged: duplicates collapse, goodbyes (TTL 0,
/// RFC 6762 §10.1) remove, a newer SRV or TXT replaces the older. Addresses accumulate: a
/// discovery lasts seconds, far less than the one second RFC 6762 §10.2 gives cache-flush records
/// before older ones go, so cache-flush changes nothing here.
struct DiscoveryRecordCache: Sendable {
    private(set) var pointers: [DNSName: [DNSName]] = [:]
    private(set) var services: [DNSName: DNSServiceLocation] = [:]
    private(set) var texts: [DNSName: [TXTEntry]] = [:]
    private(set) var ipv4: [DNSName: [IPv4Address]] = [:]
    private(set) var ipv6: [DNSName: [IPv6Address]] = [:]

    /// Adds one record; returns whether anything changed.
    @discardableResult
    mutating func insert(_ record: DNSResourceRecord) -> Bool {
        guard record.recordClass == DNSResourceRecord.internetClass else { return false }
        let name = record.name
        let goodbye = record.ttl == 0
        switch record.data {
        case .ptr(let instance):
            return Self.update(&pointers[name, default: []], with: instance, goodbye: goodbye)
        case .srv(let location):
            let old = services[name]
            services[name] = goodbye ? nil : location
            return old != services[name]
        case .txt(let entries):
            let old = texts[name]
            texts[name] = goodbye ? nil : entries
            return old != texts[name]
        case .a(let address):
            return Self.update(&ipv4[name, default: []], with: address, goodbye: goodbye)
        case .aaaa(let address):
            return Self.update(&ipv6[name, default: []], with: address, goodbye: goodbye)
        case .opaque:
            return false
        }
    }

    private static func update<Value: Equatable>(_ values: inout [Value], with value: Value, goodbye: Bool) -> Bool {
        if goodbye {
            guard let index = values.firstIndex(of: value) else { return false }
            values.remove(at: index)
            return true
        }
        if values.contains(value) { return false }
        values.append(value)
        return true
    }
}
