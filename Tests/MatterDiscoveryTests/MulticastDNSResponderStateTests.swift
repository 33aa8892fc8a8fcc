import MatterTestSupport
import Testing

@testable import MatterDiscovery

typealias Responder = MulticastDNSResponderState<Int>

/// A node's advertisements and the packets its responder answers with, decoded.
enum ResponderFixture {
    static let host = ResponderHost(
        name: "0011223344556677.local", ipv4Addresses: [IPv4Address(0x7F00_0001)], ipv6Addresses: [IPv6Address(0, 1)])
    static let commissionable = CommissionableAdvertisement(
        instanceName: "5F3A1B2C3D4E5F60", port: 5540, longDiscriminator: 3840, vendorID: 0xFFF1, productID: 0x8000,
        deviceType: 257
    )
    static let peer = OperationalPeerID(compressedFabricID: 0x2906_C908_D115_D362, nodeID: 0x11)
    static let operational = OperationalAdvertisement(
        peerID: peer, port: 5540, session: AdvertisedSessionParameters(sessionIdleInterval: .milliseconds(500)))
    static let mdnsPort: UInt16 = 5353
    static let legacyPort: UInt16 = 50_123

    /// A responder with both advertisements published at the origin and announced at 0 s, 1 s and 3 s.
    static func responder() throws -> Responder {
        var responder = try Responder(host: host)
        _ = try responder.advertise(.commissionable(commissionable), now: .zero)
        _ = try responder.advertise(.operational(operational), now: .zero)
        _ = responder.timerFired(now: at(1))
        _ = responder.timerFired(now: at(3))
        return responder
    }

    static func query(_ questions: [DNSQuestion], id: UInt16 = 0, known: [DNSResourceRecord] = []) throws -> [UInt8] {
        try DNSMessage(id: id, questions: questions, answers: known).encoded()
    }

    /// Every packet the actions send, decoded, with where it goes.
    static func sent(_ actions: [Responder.Action]) throws -> [(message: DNSMessage, to: Responder.Destination)] {
        try actions.compactMap { action in
            guard case .send(let bytes, let destination) = action else { return nil }
            return (try DNSMessage(decoding: bytes), destination)
        }
    }

    static func at(_ seconds: Double) -> Instant { Instant(since: .seconds(seconds)) }

    static var instance: DNSName { commissionable.serviceInstanceName }
    static var ptr: DNSResourceRecord {
        DNSResourceRecord(name: MatterServiceName.commissionable, ttl: 4500, data: .ptr(instance))
    }
    static var srv: DNSResourceRecord {
        DNSResourceRecord(
            name: instance, cacheFlush: true, ttl: 120, data: .srv(DNSServiceLocation(port: 5540, target: host.name)))
    }
    static var txt: DNSResourceRecord {
        DNSResourceRecord(
            name: instance, cacheFlush: true, ttl: 4500,
            data: .txt([
                TXTEntry(key: "D", value: "3840"), TXTEntry(key: "CM", value: "1"),
                TXTEntry(key: "VP", value: "65521+32768"), TXTEntry(key: "DT", value: "257"),
            ]))
    }
    static var a: DNSResourceRecord {
        DNSResourceRecord(name: host.name, cacheFlush: true, ttl: 120, data: .a(IPv4Address(0x7F00_0001)))
    }
    static var aaaa: DNSResourceRecord {
        DNSResourceRecord(name: host.name, cacheFlush: true, ttl: 120, data: .aaaa(IPv6Address(0, 1)))
    }
}

@Suite struct MulticastDNSResponderStateTests {
    typealias F = ResponderFixture

    /// RFC 6763 §12: a PTR answer brings the SRV, TXT and addresses, so one packet resolves the instance.
    @Test func answersABrowseWithEverythingAResolverNeeds() throws {
        var responder = try F.responder()
        let actions = responder.receive(
            try F.query([DNSQuestion(name: "_matterc._udp.local", type: .ptr)]), from: 7, sourcePort: F.mdnsPort,
            now: F.at(10))
        let sent = try F.sent(actions)
        #expect(sent.count == 1)
        let (response, destination) = try #require(sent.first)
        #expect(destination == .multicast)
        #expect(response.id == 0)
        #expect(response.flags == 0x8400)
        #expect(response.questions.isEmpty)
        #expect(response.answers == [F.ptr])
        #expect(response.additionals == [F.srv, F.txt, F.a, F.aaaa])
    }

    /// Matter Core §4.3.1.3: each subtype browse finds the instance; another discriminator finds nothing.
    @Test func answersSubtypeBrowses() throws {
        var responder = try F.responder()
        var time = 10.0
        for subtype in ["_L3840", "_S15", "_CM", "_V65521", "_T257"] {
            let name = DNSName("\(subtype)._sub._matterc._udp.local")
            time += 2
            let sent = try F.sent(
                responder.receive(
                    try F.query([DNSQuestion(name: name, type: .ptr)]), from: 7, sourcePort: F.mdnsPort, now: F.at(time)
                ))
            #expect(
                sent.first?.message.answers == [DNSResourceRecord(name: name, ttl: 4500, data: .ptr(F.instance))],
                "\(subtype)")
            #expect(sent.first?.message.additionals.map(\.type) == [.srv, .txt, .a, .aaaa], "\(subtype)")
        }
        for other in ["_L3841", "_S14", "_V1"] {
            let query = try F.query([DNSQuestion(name: DNSName("\(other)._sub._matterc._udp.local"), type: .ptr)])
            #expect(responder.receive(query, from: 7, sourcePort: F.mdnsPort, now: F.at(100)).isEmpty, "\(other)")
        }
    }

    /// RFC 6763 §9: the service type enumeration lists each type once, without additionals.
    @Test func enumeratesServiceTypes() throws {
        var responder = try F.responder()
        let query = try F.query([DNSQuestion(name: "_services._dns-sd._udp.local", type: .ptr)])
        let response = try #require(
            try F.sent(responder.receive(query, from: 7, sourcePort: F.mdnsPort, now: F.at(10))).first?.message)
        #expect(
            response.answers == [
                DNSResourceRecord(name: "_services._dns-sd._udp.local", ttl: 4500, data: .ptr("_matterc._udp.local")),
                DNSResourceRecord(name: "_services._dns-sd._udp.local", ttl: 4500, data: .ptr("_matter._tcp.local")),
            ])
        #expect(response.additionals.isEmpty)
    }

    @Test func answersSRVTXTAndAddressQueries() throws {
        var responder = try F.responder()
        func ask(_ name: DNSName, _ type: DNSRecordType, at seconds: Double) throws -> DNSMessage? {
            try F.sent(
                responder.receive(
                    try F.query([DNSQuestion(name: name, type: type)]), from: 7, sourcePort: F.mdnsPort,
                    now: F.at(seconds))
            ).first?.message
        }
        let srv = try ask(F.instance, .srv, at: 10)
        #expect(srv?.answers == [F.srv])
        #expect(srv?.additionals == [F.a, F.aaaa])
        let txt = try ask(F.instance, .txt, at: 12)
        #expect(txt?.answers == [F.txt])
        #expect(txt?.additionals == [])
        // RFC 6762 §6.2: one address type brings the other.
        let a = try ask(F.host.name, .a, at: 14)
        #expect(a?.answers == [F.a])
        #expect(a?.additionals == [F.aaaa])
        let aaaa = try ask(F.host.name, .aaaa, at: 16)
        #expect(aaaa?.answers == [F.aaaa])
        #expect(aaaa?.additionals == [F.a])
        // Names compare without regard to ASCII case (RFC 6762 §16); ANY returns every record of the name.
        let any = try ask("5f3a1b2c3d4e5f60._MATTERC._udp.LOCAL", .any, at: 18)
        #expect(any?.answers == [F.srv, F.txt])
    }

    /// Matter Core §4.3.2: the fabric subtype finds the operational instance, with SII in its TXT.
    @Test func answersAnOperationalBrowseByFabric() throws {
        var responder = try F.responder()
        let query = try F.query([DNSQuestion(name: "_I2906C908D115D362._sub._matter._tcp.local", type: .ptr)])
        let response = try #require(
            try F.sent(responder.receive(query, from: 7, sourcePort: F.mdnsPort, now: F.at(10))).first?.message)
        let instance: DNSName = "2906C908D115D362-0000000000000011._matter._tcp.local"
        #expect(
            response.answers == [
                DNSResourceRecord(name: "_I2906C908D115D362._sub._matter._tcp.local", ttl: 4500, data: .ptr(instance))
            ])
        #expect(
            response.additionals == [
                DNSResourceRecord(
                    name: instance, cacheFlush: true, ttl: 120,
                    data: .srv(DNSServiceLocation(port: 5540, target: F.host.name))),
                DNSResourceRecord(
                    name: instance, cacheFlush: true, ttl: 4500, data: .txt([TXTEntry(key: "SII", value: "500")])),
                F.a, F.aaaa,
            ])
    }

    @Test func staysSilentForOthersNamesResponsesAndOtherOpcodes() throws {
        var responder = try F.responder()
        let foreign = try F.query([
            DNSQuestion(name: "_hap._tcp.local", type: .ptr), DNSQuestion(name: F.host.name, type: .txt),
        ])
        #expect(responder.receive(foreign, from: 7, sourcePort: F.mdnsPort, now: F.at(10)).isEmpty)
        let response = try DNSMessage(flags: 0x8400, questions: [DNSQuestion(name: "_matterc._udp.local", type: .ptr)])
            .encoded()
        #expect(responder.receive(response, from: 7, sourcePort: F.mdnsPort, now: F.at(10)).isEmpty)
        // RFC 6762 §18.3: opcode 2 (status) is not a query.
        let status = try DNSMessage(flags: 0x1000, questions: [DNSQuestion(name: "_matterc._udp.local", type: .ptr)])
            .encoded()
        #expect(responder.receive(status, from: 7, sourcePort: F.mdnsPort, now: F.at(10)).isEmpty)
        let chaos = try F.query([DNSQuestion(name: "_matterc._udp.local", type: .ptr, recordClass: 3)])
        #expect(responder.receive(chaos, from: 7, sourcePort: F.mdnsPort, now: F.at(10)).isEmpty)
        #expect(responder.receive([0x00, 0x01, 0x02], from: 7, sourcePort: F.mdnsPort, now: F.at(10)).isEmpty)
    }

    /// RFC 6762 §6.7, byte for byte: ID 0x1234 and the question echoed, the A record behind a pointer to the
    /// question's name (RFC 1035 §4.1.4), TTL 10, no cache-flush bit, the AAAA record added.
    @Test func answersALegacyResolverWithExactBytes() throws {
        var responder = try F.responder()
        let query = hex("1234 0100 0001 0000 0000 0000  10 30303131323233333434353536363737 05 6c6f63616c 00 0001 0001")
        let actions = responder.receive(query, from: 9, sourcePort: F.legacyPort, now: F.at(0.2))
        let expected = hex(
            """
            1234 8400 0001 0001 0000 0001
            10 30303131323233333434353536363737 05 6c6f63616c 00 0001 0001
            c00c 0001 0001 0000000a 0004 7f000001
            c00c 001c 0001 0000000a 0010 00000000000000000000000000000001
            """)
        #expect(actions == [.send(expected, to: .unicast(9))])
    }

    @Test func answersALegacyBrowseWithShortTTLsAndNoCacheFlush() throws {
        var responder = try F.responder()
        let question = DNSQuestion(name: "_L3840._sub._matterc._udp.local", type: .ptr)
        // Right after the announcement: legacy replies are unicast, so the once-a-second rule does not hold them back.
        let sent = try F.sent(
            responder.receive(
                try F.query([question, question], id: 0xBEEF), from: 9, sourcePort: F.legacyPort, now: .zero))
        let (response, destination) = try #require(sent.first)
        #expect(sent.count == 1)
        #expect(destination == .unicast(9))
        #expect(response.id == 0xBEEF)
        #expect(response.questions == [question])
        #expect(response.answers.map(\.data) == [.ptr(F.instance)])
        #expect(response.additionals.map(\.type) == [.srv, .txt, .a, .aaaa])
        #expect(response.allRecords.allSatisfy { $0.ttl == 10 && !$0.cacheFlush })
    }

    /// RFC 6762 §7.1: a known answer with at least half its TTL left is not repeated; with less, it is.
    @Test func suppressesKnownAnswers() throws {
        var responder = try F.responder()
        let second = OperationalAdvertisement(
            peerID: OperationalPeerID(compressedFabricID: 0x2906_C908_D115_D362, nodeID: 0x22), port: 5541)
        _ = try responder.advertise(.operational(second), now: F.at(5))
        let question = DNSQuestion(name: "_matter._tcp.local", type: .ptr)
        let first = DNSResourceRecord(
            name: "_matter._tcp.local", ttl: 2250, data: .ptr(F.operational.serviceInstanceName))
        let known = try F.sent(
            responder.receive(try F.query([question], known: [first]), from: 7, sourcePort: F.mdnsPort, now: F.at(10)))
        #expect(known.first?.message.answers.map(\.data) == [.ptr(second.serviceInstanceName)])

        var stale = first
        stale.ttl = 2249
        let both = try F.sent(
            responder.receive(try F.query([question], known: [stale]), from: 7, sourcePort: F.mdnsPort, now: F.at(12)))
        #expect(
            both.first?.message.answers.map(\.data) == [
                .ptr(F.operational.serviceInstanceName), .ptr(second.serviceInstanceName),
            ])

        let secondPointer = DNSResourceRecord(
            name: "_matter._tcp.local", ttl: 4500, data: .ptr(second.serviceInstanceName))
        #expect(
            responder.receive(
                try F.query([question], known: [first, secondPointer]), from: 7, sourcePort: F.mdnsPort, now: F.at(14)
            ).isEmpty)
        // A known SRV is left out of the additionals too.
        let knownSRV = try F.sent(
            responder.receive(
                try F.query([DNSQuestion(name: "_matterc._udp.local", type: .ptr)], known: [F.srv]), from: 7,
                sourcePort: F.mdnsPort, now: F.at(16)))
        #expect(knownSRV.first?.message.additionals.map(\.type) == [.txt, .a, .aaaa])
    }

    /// RFC 6762 §5.4: a QU question gets a unicast reply while its records went out by multicast within a
    /// quarter of their TTL; once they have not, the reply is multicast.
    @Test func answersQUQuestionsByUnicastOnlyWhileTheGroupHeardTheRecordsRecently() throws {
        var responder = try F.responder()
        let question = DNSQuestion(name: F.instance, type: .srv, unicastResponse: true)
        let early = try F.sent(
            responder.receive(try F.query([question]), from: 7, sourcePort: F.mdnsPort, now: F.at(20)))
        #expect(early.map(\.to) == [.unicast(7)])
        #expect(early.first?.message.answers == [F.srv])
        // The SRV (TTL 120) was last multicast at 3 s; at 3 + 30 s a quarter of its TTL has passed.
        let late = try F.sent(
            responder.receive(try F.query([question]), from: 7, sourcePort: F.mdnsPort, now: F.at(33)))
        #expect(late.map(\.to) == [.multicast])
    }

    /// RFC 6762 §6: a record goes out by multicast at most once a second.
    @Test func multicastsARecordAtMostOnceASecond() throws {
        var responder = try F.responder()
        let query = try F.query([DNSQuestion(name: F.instance, type: .srv)])
        // The last announcement went out at 3 s.
        #expect(responder.receive(query, from: 7, sourcePort: F.mdnsPort, now: F.at(3.5)).isEmpty)
        #expect(try F.sent(responder.receive(query, from: 7, sourcePort: F.mdnsPort, now: F.at(10))).count == 1)
        #expect(responder.receive(query, from: 7, sourcePort: F.mdnsPort, now: F.at(10.9)).isEmpty)
        let again = try F.sent(responder.receive(query, from: 7, sourcePort: F.mdnsPort, now: F.at(11)))
        #expect(again.first?.message.answers == [F.srv])
        // The addresses went out with the SRV at 11 s, so an address query at 11.5 s gets nothing yet.
        #expect(
            responder.receive(
                try F.query([DNSQuestion(name: F.host.name, type: .a)]), from: 7, sourcePort: F.mdnsPort,
                now: F.at(11.5)
            ).isEmpty)
    }

    /// RFC 6762 §8.3: every new record announced at 0 s, 1 s and 3 s, then nothing; unique records carry the
    /// cache-flush bit (§10.2), host and SRV records live 120 s, the others 4500 s (§10).
    @Test func announcesOnAVirtualClock() throws {
        var responder = try Responder(host: F.host)
        let actions = try responder.advertise(.commissionable(F.commissionable), now: .zero)
        #expect(actions.last == .armTimer(F.at(1)))
        let first = try #require(try F.sent(actions).first)
        #expect(first.to == .multicast)
        let subtypes = ["_L3840", "_S15", "_V65521", "_T257", "_CM"].map { DNSName("\($0)._sub._matterc._udp.local") }
        #expect(
            first.message.answers == [F.ptr]
                + subtypes.map { DNSResourceRecord(name: $0, ttl: 4500, data: .ptr(F.instance)) } + [
                    F.srv, F.txt,
                    DNSResourceRecord(
                        name: "_services._dns-sd._udp.local", ttl: 4500, data: .ptr("_matterc._udp.local")), F.a,
                    F.aaaa,
                ])
        #expect(first.message.additionals.isEmpty)

        let second = responder.timerFired(now: F.at(1))
        #expect(second.last == .armTimer(F.at(3)))
        #expect(try F.sent(second).first?.message.answers == first.message.answers)
        #expect(responder.timerFired(now: F.at(2)) == [.armTimer(F.at(3))])
        let third = responder.timerFired(now: F.at(3))
        #expect(try F.sent(third).first?.message.answers == first.message.answers)
        #expect(third.count == 1)
        #expect(responder.timerFired(now: F.at(7)).isEmpty)
    }

    /// RFC 6762 §10.1: withdrawing says goodbye (TTL 0) to the records only that advertisement had; the host
    /// records go with the last one.
    @Test func saysGoodbyeOnWithdrawal() throws {
        var responder = try F.responder()
        let goodbye = try F.sent(responder.withdraw(.commissionable(F.commissionable), now: F.at(10)))
        #expect(goodbye.count == 1)
        let records = try #require(goodbye.first?.message.answers)
        #expect(records.allSatisfy { $0.ttl == 0 })
        #expect(
            Set(records.map(\.name.description)) == [
                "_matterc._udp.local", "_L3840._sub._matterc._udp.local", "_S15._sub._matterc._udp.local",
                "_V65521._sub._matterc._udp.local",
                "_T257._sub._matterc._udp.local", "_CM._sub._matterc._udp.local",
                "5F3A1B2C3D4E5F60._matterc._udp.local", "_services._dns-sd._udp.local",
            ])
        #expect(records.contains { $0.data == .ptr("_matterc._udp.local") })
        #expect(!records.contains { $0.data == .ptr("_matter._tcp.local") })
        #expect(responder.advertisements == [.operational(F.operational)])
        // Gone means gone: a browse for it gets nothing.
        #expect(
            responder.receive(
                try F.query([DNSQuestion(name: "_matterc._udp.local", type: .ptr)]), from: 7, sourcePort: F.mdnsPort,
                now: F.at(20)
            ).isEmpty)
        #expect(responder.withdraw(.commissionable(F.commissionable), now: F.at(21)).isEmpty)

        let last = try F.sent(responder.withdrawAll(now: F.at(30)))
        let lastRecords = last.flatMap(\.message.answers)
        #expect(lastRecords.allSatisfy { $0.ttl == 0 })
        #expect(lastRecords.contains(where: { $0.data == .a(IPv4Address(0x7F00_0001)) }))
        #expect(lastRecords.contains(where: { $0.data == .aaaa(IPv6Address(0, 1)) }))
        #expect(lastRecords.filter { $0.type == .srv }.count == 1)
        #expect(responder.advertisements.isEmpty)
    }

    /// Closing the commissioning window: `_CM` says goodbye, the new TXT replaces the old by its cache-flush
    /// bit (no goodbye for it) and is announced three times.
    @Test func replacesAnAdvertisementWithTheSameInstanceName() throws {
        var responder = try F.responder()
        var closed = F.commissionable
        closed.commissioningMode = .closed
        let actions = try responder.advertise(.commissionable(closed), now: F.at(10))
        let sent = try F.sent(actions)
        #expect(sent.count == 2)
        #expect(
            sent.first?.message.answers == [
                DNSResourceRecord(name: "_CM._sub._matterc._udp.local", ttl: 0, data: .ptr(F.instance))
            ])
        let announced = try #require(sent.last?.message.answers.first)
        #expect(sent.last?.message.answers.count == 1)
        #expect(announced.type == .txt)
        #expect(announced.cacheFlush)
        #expect(
            MatterTXTRecord(entries: { if case .txt(let entries) = announced.data { entries } else { [] } }())
                .commissioningMode == 0)
        #expect(actions.last == .armTimer(F.at(11)))
        #expect(responder.advertisements.count == 2)
    }

    @Test func dropsPendingAnnouncementsOfWithdrawnRecords() throws {
        var responder = try Responder(host: F.host)
        _ = try responder.advertise(.commissionable(F.commissionable), now: .zero)
        let goodbye = responder.withdraw(.commissionable(F.commissionable), now: F.at(0.5))
        #expect(!goodbye.contains { if case .armTimer = $0 { true } else { false } })
        #expect(responder.timerFired(now: F.at(1)).isEmpty)
    }

    /// Forty operational instances do not fit one 1452-byte packet: every answer still goes out, split.
    @Test func splitsLargeAnswersAcrossPackets() throws {
        var responder = try Responder(host: F.host)
        for node in 1...40 {
            let advertisement = OperationalAdvertisement(
                peerID: OperationalPeerID(compressedFabricID: 0xABCD, nodeID: UInt64(node)), port: 5540)
            _ = try responder.advertise(.operational(advertisement), now: .zero)
        }
        let actions = responder.receive(
            try F.query([DNSQuestion(name: "_matter._tcp.local", type: .ptr)]), from: 7, sourcePort: F.legacyPort,
            now: F.at(10))
        #expect(actions.count > 1)
        for case .send(let bytes, _) in actions { #expect(bytes.count <= 1452) }
        let answers = try F.sent(actions).flatMap(\.message.answers)
        #expect(Set(answers.map(\.data)).count == 40)
    }

    @Test func refusesAHostItCannotPublish() {
        #expect(throws: AdvertisementError.hostWithoutAddresses("x.local")) {
            try Responder(host: ResponderHost(name: "x.local", ipv4Addresses: [], ipv6Addresses: []))
        }
        #expect(throws: AdvertisementError.unencodable(.emptyLabel(name: "x..local"))) {
            try Responder(
                host: ResponderHost(
                    name: DNSName(labels: ["x", "", "local"]), ipv4Addresses: [IPv4Address(1)], ipv6Addresses: []))
        }
    }

    @Test func refusesAnInvalidAdvertisementAndKeepsPublishing() throws {
        var responder = try F.responder()
        var bad = F.commissionable
        bad.instanceName = "1111111111111111"
        bad.pairingInstruction = String(repeating: "p", count: 129)
        #expect(throws: AdvertisementError.valueTooLong(key: "PI", length: 129, maximum: 128)) {
            try responder.advertise(.commissionable(bad), now: F.at(5))
        }
        #expect(responder.advertisements.count == 2)
    }
}
