import MatterTestSupport
import Testing

@testable import MatterDiscovery

/// Random and mutated queries into the responder: each yields responses that decode and carry only records
/// the node publishes (or their legacy, short-TTL form), or nothing at all.
@Suite struct MulticastDNSResponderStateFuzzTests {
    @Test func randomAndMutatedQueriesOnlyProduceValidResponses() throws {
        typealias F = ResponderFixture
        var responder = try F.responder()
        let names: [DNSName] = [
            "_matterc._udp.local", "_matter._tcp.local", "_services._dns-sd._udp.local",
            "_L3840._sub._matterc._udp.local",
            "_I2906C908D115D362._sub._matter._tcp.local", F.instance, F.host.name,
        ]
        let seeds = try names.flatMap { name in
            try [DNSRecordType.ptr, .srv, .txt, .a, .aaaa, .any].map { type in
                try F.query(
                    [DNSQuestion(name: name, type: type, unicastResponse: type == .srv)], id: 0x1234, known: [F.ptr])
            }
        }
        // Names compare without regard to case (a compressed name may point into the querier's casing).
        let published = try F.sent(responder.withdrawAll(now: F.at(1))).flatMap(\.message.answers)
        responder = try F.responder()
        var random = MatterTestSupport.SplitMix64(seed: 0x5E5D_0C1A)
        var answered = 0
        for round in 0..<10_000 {
            let packet =
                round.isMultiple(of: 5)
                ? random.bytes(random.below(80))
                : FuzzMutation.mutate(
                    seeds[random.below(seeds.count)], interesting: [0x00, 0x0C, 0x21, 0xC0, 0xFF, 0x80], using: &random)
            let port: UInt16 = random.below(2) == 0 ? F.mdnsPort : F.legacyPort
            let actions = responder.receive(
                packet, from: round, sourcePort: port,
                now: Instant(since: .milliseconds(10_000 + 100 * round)))
            for action in actions {
                guard case .send(let bytes, let destination) = action else {
                    Issue.record("round \(round): a query armed a timer")
                    continue
                }
                let response = try DNSMessage(decoding: bytes)
                #expect(response.isResponse)
                #expect(bytes.count <= 1452)
                if destination == .unicast(round) && port == F.legacyPort {
                    #expect(response.allRecords.allSatisfy { $0.ttl <= 10 && !$0.cacheFlush })
                } else {
                    #expect(response.id == 0)
                }
                for record in response.allRecords {
                    #expect(
                        published.contains { $0.name == record.name && $0.data == record.data },
                        "round \(round): \(record)")
                }
                answered += 1
            }
        }
        #expect(answered > 100)
    }
}
