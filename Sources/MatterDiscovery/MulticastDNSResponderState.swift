// RFC 6762 responder and RFC 6763 DNS-SD publication, for the Matter Core §4.3 services of one node.
/// The advertising side of mDNS, sans-IO: give it advertisements, received queries and the time; carry
/// out the actions it returns. `Address` is whatever the caller uses to reply to a querier.
/// Only one timer exists at a time; each `armTimer` replaces the previous one.
///
/// Not done here: probing for name conflicts (§8.1), the 20–120 ms random delay of shared answers (§6)
/// and waiting for the rest of a truncated known-answer list (§7.2); answers go out at once.
public struct MulticastDNSResponderState<Address: Hashable & Sendable>: Sendable {
    public enum Destination: Hashable, Sendable {
        /// To the mDNS group on every interface the caller advertises on.
        case multicast
        /// To one querier: a legacy resolver (§6.7) or one that asked for a unicast reply (§5.4).
        case unicast(Address)
    }

    public enum Action: Hashable, Sendable {
        case send([UInt8], to: Destination)
        /// Call `timerFired(now:)` at this instant.
        case armTimer(Instant)
    }

    public let host: ResponderHost
    /// What is published now, in the order first advertised.
    public private(set) var advertisements: [MatterAdvertisement] = []
    /// The DNS-SD form of each advertisement, at the same index.
    private var services: [AdvertisedService] = []
    /// RFC 6762 §6: when each record last went out by multicast.
    private var lastMulticast: [RecordKey: Instant] = [:]
    private var announcements: [Announcement] = []

    /// A record without its TTL and cache-flush bit: what stays the same between an announcement and its goodbye.
    private struct RecordKey: Hashable, Sendable {
        let name: DNSName
        let data: DNSRecordData

        init(_ record: DNSResourceRecord) {
            name = record.name
            data = record.data
        }
    }

    /// The name and type a unique record owns (RFC 6762 §10.2): a new record with them replaces the old.
    private struct RecordOwner: Hashable, Sendable {
        let name: DNSName
        let type: DNSRecordType

        init(_ record: DNSResourceRecord) {
            name = record.name
            type = record.type
        }
    }

    /// Newly published records still owed announcements (§8.3).
    private struct Announcement: Sendable {
        var due: Instant
        var keys: Set<RecordKey>
        var gaps: ArraySlice<Duration>
    }

    /// Refuses a host without addresses or with a name DNS cannot carry.
    public init(host: ResponderHost) throws(AdvertisementError) {
        guard !host.ipv4Addresses.isEmpty || !host.ipv6Addresses.isEmpty else { throw .hostWithoutAddresses(host.name) }
        try Self.checkEncodable(Self.hostRecords(host))
        self.host = host
    }

    // MARK: Publishing

    /// Publishes an advertisement, or replaces the one with the same instance name: new records are
    /// announced now and twice more (§8.3); records the replacement drops get goodbyes (§10.1).
    public mutating func advertise(
        _ advertisement: MatterAdvertisement, now: Instant
    ) throws(AdvertisementError) -> [Action] {
        let service = try advertisement.service()
        try Self.checkEncodable(serviceRecords(service))
        let before = records
        if let index = advertisements.firstIndex(where: { $0.serviceInstanceName == advertisement.serviceInstanceName })
        {
            advertisements[index] = advertisement
            services[index] = service
        } else {
            advertisements.append(advertisement)
            services.append(service)
        }
        return publish(changesFrom: before, now: now)
    }

    /// Stops publishing the advertisement with this instance name and says goodbye to its records.
    public mutating func withdraw(_ advertisement: MatterAdvertisement, now: Instant) -> [Action] {
        guard
            let index = advertisements.firstIndex(where: { $0.serviceInstanceName == advertisement.serviceInstanceName }
            )
        else { return [] }
        let before = records
        advertisements.remove(at: index)
        services.remove(at: index)
        return publish(changesFrom: before, now: now)
    }

    /// Withdraws everything, host records included: what a node sends before it goes away.
    public mutating func withdrawAll(now: Instant) -> [Action] {
        let before = records
        advertisements = []
        services = []
        return publish(changesFrom: before, now: now)
    }

    public mutating func timerFired(now: Instant) -> [Action] {
        announceDue(now: now) + timerAction
    }

    /// Goodbyes for the records gone since `before`, the first announcement of the new ones.
    private mutating func publish(changesFrom before: [DNSResourceRecord], now: Instant) -> [Action] {
        let after = records
        let afterKeys = Set(after.map(RecordKey.init))
        let beforeKeys = Set(before.map(RecordKey.init))
        // §10.2: a unique record whose name and type live on is replaced by the new one's cache-flush bit.
        let replaced = Set(after.filter(\.cacheFlush).map(RecordOwner.init))
        var goodbyes = before.filter { record in
            !afterKeys.contains(RecordKey(record)) && !(record.cacheFlush && replaced.contains(RecordOwner(record)))
        }
        for index in goodbyes.indices {
            goodbyes[index].ttl = 0
            lastMulticast[RecordKey(goodbyes[index])] = nil
        }
        for index in announcements.indices { announcements[index].keys.formIntersection(afterKeys) }
        announcements.removeAll { $0.keys.isEmpty }
        let fresh = afterKeys.subtracting(beforeKeys)
        if !fresh.isEmpty {
            announcements.append(Announcement(due: now, keys: fresh, gaps: DiscoveryTiming.announcementGaps[...]))
        }
        let farewell = goodbyes.isEmpty ? [] : packets(answers: goodbyes).map { Action.send($0, to: .multicast) }
        return farewell + announceDue(now: now) + timerAction
    }

    /// Multicasts every announcement due by `now` and schedules each one's next.
    private mutating func announceDue(now: Instant) -> [Action] {
        var dueKeys: Set<RecordKey> = []
        for index in announcements.indices where announcements[index].due <= now {
            dueKeys.formUnion(announcements[index].keys)
            if let gap = announcements[index].gaps.popFirst() {
                announcements[index].due = now + gap
            } else {
                announcements[index].keys = []
            }
        }
        announcements.removeAll { $0.keys.isEmpty }
        guard !dueKeys.isEmpty else { return [] }
        let all = records
        let answers = all.filter { dueKeys.contains(RecordKey($0)) }
        return multicast(answers: answers, additionals: additionals(for: answers, among: all), now: now)
    }

    private var timerAction: [Action] {
        announcements.map(\.due).min().map { [.armTimer($0)] } ?? []
    }

    // MARK: Answering

    /// Answers one received packet. `sourcePort` tells a legacy resolver (§6.7) from an mDNS querier;
    /// responses, malformed packets and questions about names this node does not own get no reply.
    public mutating func receive(
        _ packet: [UInt8], from source: Address, sourcePort: UInt16, now: Instant
    ) -> [Action] {
        guard let query = try? DNSMessage(decoding: packet), !query.isResponse,
            query.flags & DNSMessage.opcodeAndResponseCodeMask == 0
        else { return [] }
        let all = records
        var answered: [DNSQuestion] = []
        var answers: [DNSResourceRecord] = []
        for question in query.questions
        where question.recordClass == DNSResourceRecord.internetClass
            || question.recordClass == DNSResourceRecord.anyClass
        {
            let matching = all.filter {
                $0.name == question.name && (question.type == .any || question.type == $0.type)
            }
            guard !matching.isEmpty else { continue }
            if !answered.contains(question) { answered.append(question) }
            for record in matching where !answers.contains(record) { answers.append(record) }
        }
        // §7.1: leave out what the querier already holds with at least half its lifetime left.
        func isKnown(_ record: DNSResourceRecord) -> Bool {
            query.answers.contains {
                $0.name == record.name && $0.data == record.data && $0.recordClass == record.recordClass
                    && $0.ttl >= record.ttl / 2
            }
        }
        answers.removeAll(where: isKnown)
        guard !answers.isEmpty else { return [] }
        let extra = additionals(for: answers, among: all).filter { !isKnown($0) }

        if sourcePort != DiscoveryLimits.multicastDNSPort {
            // §6.7: echo the ID and the questions, short TTLs, no cache-flush bit (§10.2).
            func legacy(_ record: DNSResourceRecord) -> DNSResourceRecord {
                var record = record
                record.ttl = min(record.ttl, DiscoveryTiming.legacyUnicastMaximumTTL)
                record.cacheFlush = false
                return record
            }
            return packets(
                id: query.id, questions: answered, answers: answers.map(legacy), additionals: extra.map(legacy)
            )
            .map { .send($0, to: .unicast(source)) }
        }
        // §5.4: a unicast reply when asked, unless the records have not gone out by multicast in a quarter of their TTL.
        if answered.allSatisfy(\.unicastResponse) && answers.allSatisfy({ wasMulticastRecently($0, now: now) }) {
            return packets(answers: answers, additionals: extra).map { .send($0, to: .unicast(source)) }
        }
        return multicast(answers: answers, additionals: extra, now: now)
    }

    /// §6: what went out by multicast less than a second ago stays out; nothing left, nothing sent.
    private mutating func multicast(
        answers: [DNSResourceRecord], additionals: [DNSResourceRecord], now: Instant
    ) -> [Action] {
        func allowed(_ record: DNSResourceRecord) -> Bool {
            lastMulticast[RecordKey(record)].map { $0 + DiscoveryTiming.minimumMulticastInterval <= now } ?? true
        }
        let answers = answers.filter(allowed)
        guard !answers.isEmpty else { return [] }
        let additionals = additionals.filter(allowed)
        for record in answers + additionals { lastMulticast[RecordKey(record)] = now }
        return packets(answers: answers, additionals: additionals).map { .send($0, to: .multicast) }
    }

    private func wasMulticastRecently(_ record: DNSResourceRecord, now: Instant) -> Bool {
        lastMulticast[RecordKey(record)].map { now < $0 + .seconds(Int(record.ttl)) / 4 } ?? false
    }

    /// RFC 6763 §12: with a PTR, the instance's SRV and TXT and the host's addresses; with an SRV, the
    /// addresses; with an address, the host's other addresses (RFC 6762 §6.2).
    private func additionals(for answers: [DNSResourceRecord], among all: [DNSResourceRecord]) -> [DNSResourceRecord] {
        var extra: [DNSResourceRecord] = []
        func add(_ record: DNSResourceRecord) {
            if !answers.contains(record) && !extra.contains(record) { extra.append(record) }
        }
        func addAddresses(of name: DNSName) {
            for record in all where record.name == name && (record.type == .a || record.type == .aaaa) { add(record) }
        }
        for answer in answers {
            switch answer.data {
            case .ptr(let instance):
                let described = all.filter { $0.name == instance && ($0.type == .srv || $0.type == .txt) }
                described.forEach(add)
                for case .srv(let location) in described.map(\.data) { addAddresses(of: location.target) }
            case .srv(let location):
                addAddresses(of: location.target)
            case .a, .aaaa:
                addAddresses(of: answer.name)
            case .txt, .opaque:
                break
            }
        }
        return extra
    }

    // MARK: Records

    /// Every record published now: per service its PTRs, SRV and TXT, then the service types (RFC 6763 §9)
    /// and the host's addresses; nothing while no advertisement is published.
    private var records: [DNSResourceRecord] {
        guard !services.isEmpty else { return [] }
        var serviceTypes: [DNSName] = []
        var result: [DNSResourceRecord] = []
        for service in services {
            if !serviceTypes.contains(service.serviceType) { serviceTypes.append(service.serviceType) }
            result += serviceRecords(service)
        }
        result += serviceTypes.map {
            DNSResourceRecord(
                name: MatterServiceName.serviceTypeEnumeration, ttl: DiscoveryTiming.otherRecordTTL, data: .ptr($0))
        }
        return result + Self.hostRecords(host)
    }

    /// Shared PTRs (no cache-flush bit), unique SRV and TXT (RFC 6762 §10.2).
    private func serviceRecords(_ service: AdvertisedService) -> [DNSResourceRecord] {
        let pointers = ([service.serviceType] + service.subtypes).map {
            DNSResourceRecord(name: $0, ttl: DiscoveryTiming.otherRecordTTL, data: .ptr(service.instance))
        }
        return pointers + [
            DNSResourceRecord(
                name: service.instance, cacheFlush: true, ttl: DiscoveryTiming.hostRecordTTL,
                data: .srv(DNSServiceLocation(port: service.port, target: host.name))),
            DNSResourceRecord(
                name: service.instance, cacheFlush: true, ttl: DiscoveryTiming.otherRecordTTL, data: .txt(service.txt)),
        ]
    }

    private static func hostRecords(_ host: ResponderHost) -> [DNSResourceRecord] {
        host.ipv4Addresses.map {
            DNSResourceRecord(name: host.name, cacheFlush: true, ttl: DiscoveryTiming.hostRecordTTL, data: .a($0))
        }
            + host.ipv6Addresses.map {
                DNSResourceRecord(
                    name: host.name, cacheFlush: true, ttl: DiscoveryTiming.hostRecordTTL, data: .aaaa($0))
            }
    }

    /// Everything published is checked once here, so building a response later cannot fail.
    private static func checkEncodable(_ records: [DNSResourceRecord]) throws(AdvertisementError) {
        do {
            _ = try DNSMessage(answers: records).encoded(compressingNames: false)
        } catch {
            throw .unencodable(error)
        }
    }

    // MARK: Packets

    /// Responses holding every answer, split so each fits `maximumResponseSize` (sizes counted without
    /// name compression, so the real packets are smaller); additionals that do not fit are left out.
    private func packets(
        id: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSResourceRecord],
        additionals: [DNSResourceRecord] = []
    ) -> [[UInt8]] {
        let header = 12 + questions.reduce(0) { $0 + Self.wireLength($1.name) + 4 }
        var messages: [DNSMessage] = []
        var current = DNSMessage(id: id, flags: Self.responseFlags, questions: questions)
        var size = header
        for answer in answers {
            let length = Self.wireLength(answer)
            if size + length > DiscoveryLimits.maximumResponseSize && !current.answers.isEmpty {
                messages.append(current)
                current = DNSMessage(id: id, flags: Self.responseFlags, questions: questions)
                size = header
            }
            current.answers.append(answer)
            size += length
        }
        for additional in additionals {
            let length = Self.wireLength(additional)
            guard size + length <= DiscoveryLimits.maximumResponseSize else { continue }
            current.additionals.append(additional)
            size += length
        }
        messages.append(current)
        // Every record passed `checkEncodable`, and echoed questions were decoded under the encoder's own limits.
        return messages.compactMap { try? $0.encoded() }
    }

    /// RFC 6762 §18.2 and §18.4: QR and AA set, opcode and response code zero.
    private static var responseFlags: UInt16 { DNSMessage.responseFlag | DNSMessage.authoritativeAnswerFlag }

    private static func wireLength(_ name: DNSName) -> Int {
        name.labels.reduce(1) { $0 + 1 + $1.utf8.count }
    }

    private static func wireLength(_ record: DNSResourceRecord) -> Int {
        var writer = DNSWriter(compressing: false)
        // Published records passed `checkEncodable`; were one not to, it would count as a full packet.
        do { try writer.writeRecord(record) } catch { return DiscoveryLimits.maximumResponseSize }
        return writer.bytes.count
    }
}
