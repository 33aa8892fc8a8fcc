import Testing

@testable import MatterDiscovery

/// Our querier (`DiscoveryStateMachine`) and our responder on one in-memory link, on a virtual clock:
/// every packet arrives at once; multicast reaches the querier when it listens on the mDNS port.
private struct Link {
    static let querierAddress = 1
    var responder: Responder
    var querier: DiscoveryStateMachine
    /// 5353 makes the querier a full mDNS querier that hears the group; any other port makes it legacy.
    var querierPort: UInt16
    var now = Instant.zero
    var responderTimer: Instant?
    var querierTimer: Instant?
    var result: DiscoveryStateMachine.DiscoveryResult?
    var multicastsHeard = 0
    var unicastsHeard = 0

    init(responder: Responder, target: DiscoveryTarget, querierPort: UInt16) {
        self.responder = responder
        querier = DiscoveryStateMachine(target: target, timeout: .seconds(3))
        self.querierPort = querierPort
    }

    mutating func advertise(_ advertisement: MatterAdvertisement) throws {
        fromResponder(try responder.advertise(advertisement, now: now))
    }

    /// Starts the querier at `start` and runs both timers until it finishes.
    mutating func discover(startingAt start: Instant) {
        advance(to: start)
        fromQuerier(querier.start(now: now))
        while result == nil, let next = [responderTimer, querierTimer].compactMap({ $0 }).min() {
            advance(to: next)
        }
    }

    private mutating func advance(to instant: Instant) {
        while let next = [responderTimer, querierTimer].compactMap({ $0 }).min(), next <= instant, result == nil {
            now = next
            if responderTimer == next {
                responderTimer = nil
                fromResponder(responder.timerFired(now: now))
            }
            if querierTimer == next {
                querierTimer = nil
                fromQuerier(querier.timerFired(now: now))
            }
        }
        now = max(now, instant)
    }

    private mutating func fromResponder(_ actions: [Responder.Action]) {
        for action in actions {
            switch action {
            case .armTimer(let instant): responderTimer = instant
            case .send(let bytes, .multicast):
                guard querierPort == ResponderFixture.mdnsPort else { continue }
                multicastsHeard += 1
                fromQuerier(querier.receive(bytes, now: now))
            case .send(let bytes, .unicast(let address)):
                #expect(address == Self.querierAddress)
                unicastsHeard += 1
                fromQuerier(querier.receive(bytes, now: now))
            }
        }
    }

    private mutating func fromQuerier(_ actions: [DiscoveryStateMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let bytes):
                fromResponder(responder.receive(bytes, from: Self.querierAddress, sourcePort: querierPort, now: now))
            case .armTimer(let instant): querierTimer = instant
            case .resolved: break
            case .finished(let result): self.result = result
            }
        }
    }
}

@Suite struct MulticastDNSResponderStateLoopTests {
    typealias F = ResponderFixture

    private func link(_ target: DiscoveryTarget, querierPort: UInt16) throws -> Link {
        var link = Link(responder: try Responder(host: F.host), target: target, querierPort: querierPort)
        try link.advertise(.commissionable(F.commissionable))
        try link.advertise(.operational(F.operational))
        return link
    }

    private func expectTheDevice(_ result: DiscoveryStateMachine.DiscoveryResult?) throws {
        guard case .commissionable(let nodes) = result else {
            Issue.record("no commissionable result: \(String(describing: result))"); return
        }
        let node = try #require(nodes.first)
        #expect(nodes.count == 1)
        #expect(node.instanceName == "5F3A1B2C3D4E5F60")
        #expect(node.hostName == F.host.name)
        #expect(node.port == 5540)
        #expect(node.longDiscriminator == 3840)
        #expect(node.txt.vendorID == 0xFFF1)
        #expect(node.txt.commissioningMode == 1)
        #expect(node.ipv4Addresses == F.host.ipv4Addresses)
        #expect(node.ipv6Addresses == F.host.ipv6Addresses)
    }

    /// Our querier asks from an ephemeral port, so every answer is a legacy unicast reply (RFC 6762 §6.7).
    @Test(arguments: [CommissionableFilter.longDiscriminator(3840), .shortDiscriminator(15)])
    func findsTheAdvertisementFromAnEphemeralPort(filter: CommissionableFilter) throws {
        var link = try link(.commissionable(filter), querierPort: 50_000)
        link.discover(startingAt: Instant(since: .seconds(10)))
        try expectTheDevice(link.result)
        #expect(link.unicastsHeard > 0)
        #expect(link.multicastsHeard == 0)
    }

    /// A querier on port 5353 starting with the announcements hears them, and later multicast answers.
    @Test func findsTheAdvertisementAsAFullMulticastQuerier() throws {
        var link = try link(.commissionable(.longDiscriminator(3840)), querierPort: F.mdnsPort)
        link.discover(startingAt: .zero)
        try expectTheDevice(link.result)
        #expect(link.multicastsHeard > 0)
    }

    @Test func missesADeviceWithAnotherDiscriminator() throws {
        var link = try link(.commissionable(.longDiscriminator(3841)), querierPort: 50_000)
        link.discover(startingAt: Instant(since: .seconds(10)))
        #expect(link.result == .commissionable([]))
    }

    @Test func resolvesTheOperationalInstance() throws {
        var link = try link(.operational(F.peer), querierPort: 50_000)
        link.discover(startingAt: Instant(since: .seconds(10)))
        guard case .operational(let node?) = link.result else {
            Issue.record("not resolved: \(String(describing: link.result))"); return
        }
        #expect(node.peerID == F.peer)
        #expect(node.port == 5540)
        #expect(node.txt.sessionIdleInterval == .milliseconds(500))
        #expect(node.ipv4Addresses == F.host.ipv4Addresses)
        #expect(link.now == Instant(since: .seconds(10)))
    }

    /// After withdrawal the querier, still listening, forgets the instance said goodbye to.
    @Test func losesTheAdvertisementAfterItsWithdrawal() throws {
        var link = try link(.commissionable(.longDiscriminator(3840)), querierPort: 50_000)
        _ = link.responder.withdraw(.commissionable(F.commissionable), now: .zero)
        link.discover(startingAt: Instant(since: .seconds(10)))
        #expect(link.result == .commissionable([]))
    }
}
