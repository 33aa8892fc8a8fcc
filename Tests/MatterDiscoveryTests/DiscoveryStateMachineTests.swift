import Testing

@testable import MatterDiscovery

/// A DNS-SD responder on a simulated network: answers each question it owns, like CircuitMatter's
/// loopback responder (PTR answers carry SRV, TXT and addresses) or, with `minimal`, with only the asked record.
private struct SimulatedDevice {
    var instance: DNSName
    var pointerNames: [DNSName]
    var host: DNSName = "device.local"
    var port: UInt16 = 5540
    var txt: [TXTEntry]
    var addresses: [IPv6Address] = [IPv6Address("::1")].compactMap { $0 }
    var minimal = false

    static func commissionable(
        _ label: String, discriminator: UInt16, subtypes: [CommissionableSubtype], minimal: Bool = false
    ) -> SimulatedDevice {
        SimulatedDevice(
            instance: MatterServiceName.commissionable.prepending(label),
            pointerNames: [MatterServiceName.commissionable] + subtypes.map(\.serviceName),
            txt: [
                TXTEntry(key: "D", value: String(discriminator)), TXTEntry(key: "CM", value: "1"),
                TXTEntry(key: "T", value: "1"),
                TXTEntry(key: "PI", value: ""),
            ],
            minimal: minimal
        )
    }

    func answer(_ query: [UInt8]) throws -> [UInt8]? {
        var records: [DNSResourceRecord] = []
        let location = DNSResourceRecord(
            name: instance, cacheFlush: true, ttl: 120, data: .srv(DNSServiceLocation(port: port, target: host)))
        let text = DNSResourceRecord(name: instance, cacheFlush: true, ttl: 120, data: .txt(txt))
        let hostRecords = addresses.map { DNSResourceRecord(name: host, cacheFlush: true, ttl: 120, data: .aaaa($0)) }
        for question in try DNSMessage(decoding: query).questions {
            if question.type == .ptr && pointerNames.contains(question.name) {
                records.append(DNSResourceRecord(name: question.name, ttl: 4500, data: .ptr(instance)))
                if !minimal { records += [location, text] + hostRecords }
            } else if question.name == instance && question.type == .srv {
                records += minimal ? [location] : [location] + hostRecords
            } else if question.name == instance && question.type == .txt {
                records.append(text)
            } else if question.name == host && question.type == .aaaa {
                records += hostRecords
            }
        }
        guard !records.isEmpty else { return nil }
        return try DNSMessage(flags: 0x8400, answers: records).encoded()
    }
}

/// Runs a machine against simulated devices on a virtual clock; answers arrive at the instant of the query.
private struct Harness {
    var machine: DiscoveryStateMachine
    var devices: [SimulatedDevice]
    var queries: [(at: Instant, questions: [DNSQuestion])] = []
    var timer: Instant?
    var finished: (at: Instant, result: DiscoveryStateMachine.DiscoveryResult)?
    /// Each `resolved` action, when it came.
    var resolved: [(at: Instant, node: CommissionableNode)] = []

    init(_ target: DiscoveryTarget, timeout: Duration, devices: [SimulatedDevice]) {
        machine = DiscoveryStateMachine(target: target, timeout: timeout)
        self.devices = devices
    }

    mutating func run() throws {
        try handle(machine.start(now: .zero), now: .zero)
        while finished == nil, let instant = timer {
            timer = nil
            try handle(machine.timerFired(now: instant), now: instant)
        }
    }

    /// Answers are heard once the whole batch of actions was carried out, as on a real network.
    mutating func handle(_ actions: [DiscoveryStateMachine.Action], now: Instant) throws {
        var responses: [[UInt8]] = []
        for action in actions {
            switch action {
            case .send(let packet):
                queries.append((now, try DNSMessage(decoding: packet).questions))
                for device in devices {
                    if let response = try device.answer(packet) { responses.append(response) }
                }
            case .armTimer(let instant): timer = instant
            case .resolved(let node): resolved.append((now, node))
            case .finished(let result): finished = (now, result)
            }
        }
        for response in responses { try handle(machine.receive(response, now: now), now: now) }
    }

    var commissionableNodes: [CommissionableNode] {
        if case .commissionable(let nodes) = finished?.result { nodes } else { [] }
    }
}

private func seconds(_ value: Int) -> Instant { Instant(since: .seconds(value)) }

@Suite struct DiscoveryStateMachineTests {
    /// CircuitMatter advertises `_L3840` and `_CM` but no `_S15`: the browse of the whole service finds it.
    @Test func findsADeviceWithoutTheShortSubtypeByShortDiscriminator() throws {
        let circuitMatter = SimulatedDevice.commissionable(
            "5F3A1B2C3D4E5F60", discriminator: 3840, subtypes: [.longDiscriminator(3840), .commissioningMode])
        var other = SimulatedDevice.commissionable(
            "0000000000000002", discriminator: 1234, subtypes: [.longDiscriminator(1234), .shortDiscriminator(4)])
        other.host = "other.local"
        var harness = Harness(
            .commissionable(.shortDiscriminator(15)), timeout: .seconds(3), devices: [circuitMatter, other])
        try harness.run()
        let node = try #require(harness.commissionableNodes.first)
        #expect(harness.commissionableNodes.count == 1)
        #expect(node.instanceName == "5F3A1B2C3D4E5F60")
        #expect(node.port == 5540)
        #expect(node.longDiscriminator == 3840)
        #expect(node.shortDiscriminator == 15)
        #expect(node.ipv6Addresses.map(\.description) == ["::1"])
        #expect(node.txt.tcpSupport == 1)
        #expect(
            harness.queries.first?.questions.map(\.name.description) == [
                "_S15._sub._matterc._udp.local", "_matterc._udp.local",
            ])
    }

    @Test func filtersByLongDiscriminator() throws {
        let wanted = SimulatedDevice.commissionable("AAAAAAAAAAAAAAAA", discriminator: 3840, subtypes: [])
        var unwanted = SimulatedDevice.commissionable("BBBBBBBBBBBBBBBB", discriminator: 3841, subtypes: [])
        unwanted.host = "b.local"
        var harness = Harness(
            .commissionable(.longDiscriminator(3840)), timeout: .seconds(2), devices: [unwanted, wanted])
        try harness.run()
        #expect(harness.commissionableNodes.map(\.instanceName) == ["AAAAAAAAAAAAAAAA"])
        var all = Harness(.commissionable(.all), timeout: .seconds(2), devices: [unwanted, wanted])
        try all.run()
        #expect(all.commissionableNodes.map(\.instanceName) == ["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBB"])
    }

    @Test func aBrowseForADiscriminatorEndsSoonAfterTheFirstMatchAndABrowseForAllKeepsItsWindow() throws {
        let first = SimulatedDevice.commissionable("AAAAAAAAAAAAAAAA", discriminator: 3840, subtypes: [])
        var twin = SimulatedDevice.commissionable("CCCCCCCCCCCCCCCC", discriminator: 3841, subtypes: [])
        twin.host = "c.local"
        var harness = Harness(.commissionable(.shortDiscriminator(15)), timeout: .seconds(3), devices: [first, twin])
        try harness.run()
        #expect(harness.finished?.at == Instant(since: DiscoveryTiming.matchSettle))
        // Both answered the same query: both are kept, for the caller to choose.
        #expect(harness.commissionableNodes.map(\.instanceName) == ["AAAAAAAAAAAAAAAA", "CCCCCCCCCCCCCCCC"])
        #expect(harness.queries.count == 1)
        // Each is reported the moment it is resolved, long before the window ends: a commissioner starts with the
        // first at once and keeps the other as a fallback.
        #expect(Set(harness.resolved.map(\.node.instanceName)) == ["AAAAAAAAAAAAAAAA", "CCCCCCCCCCCCCCCC"])
        #expect(harness.resolved.allSatisfy { $0.at == .zero })
        #expect(harness.resolved.map(\.node.instanceName).count == 2, "each node is reported once")

        var all = Harness(.commissionable(.all), timeout: .seconds(3), devices: [first, twin])
        try all.run()
        #expect(all.finished?.at == seconds(3))
        #expect(all.commissionableNodes.count == 2)
    }

    /// RFC 6762 §5.2: one second, then doubling, until the caller's timeout.
    @Test func requeriesWithBackoffUntilTheTimeout() throws {
        var harness = Harness(.commissionable(.longDiscriminator(3840)), timeout: .seconds(10), devices: [])
        try harness.run()
        #expect(harness.queries.map(\.at) == [seconds(0), seconds(1), seconds(3), seconds(7)])
        #expect(harness.finished?.at == seconds(10))
        #expect(harness.finished?.result == .commissionable([]))
    }

    @Test func reportsAnUnresolvedOperationalNodeAtTheTimeout() throws {
        let peer = OperationalPeerID(compressedFabricID: 0x2906_C908_D115_D362, nodeID: 0x11)
        var harness = Harness(.operational(peer), timeout: .milliseconds(2500), devices: [])
        try harness.run()
        #expect(harness.finished?.at == Instant(since: .milliseconds(2500)))
        #expect(harness.finished?.result == .operational(nil))
        #expect(
            harness.queries.first?.questions == [
                DNSQuestion(name: peer.serviceInstanceName, type: .srv),
                DNSQuestion(name: peer.serviceInstanceName, type: .txt),
            ])
    }

    /// CircuitMatter's operational record has no TXT: SRV and an address resolve it at once.
    @Test func resolvesAnOperationalNodeWithoutTXT() throws {
        let peer = OperationalPeerID(compressedFabricID: 0x2906_C908_D115_D362, nodeID: 0x11)
        let device = SimulatedDevice(instance: peer.serviceInstanceName, pointerNames: [], port: 5541, txt: [])
        var harness = Harness(.operational(peer), timeout: .seconds(5), devices: [device])
        try harness.run()
        guard case .operational(let node) = harness.finished?.result else { Issue.record("not finished"); return }
        #expect(harness.finished?.at == .zero)
        #expect(node?.port == 5541)
        #expect(node?.peerID == peer)
        #expect(node?.txt.sessionIdleInterval == nil)
    }

    /// A responder that answers only what was asked: the machine asks SRV and TXT, then the host's addresses.
    @Test func followsUpWhenOnlyThePointerWasAnswered() throws {
        let device = SimulatedDevice.commissionable(
            "CCCCCCCCCCCCCCCC", discriminator: 3840, subtypes: [.longDiscriminator(3840)], minimal: true)
        var harness = Harness(.commissionable(.longDiscriminator(3840)), timeout: .seconds(2), devices: [device])
        try harness.run()
        let instance = device.instance
        let followUps = harness.queries.filter { $0.at == .zero }.dropFirst().map(\.questions)
        #expect(
            followUps == [
                [DNSQuestion(name: instance, type: .srv), DNSQuestion(name: instance, type: .txt)],
                [DNSQuestion(name: "device.local", type: .a), DNSQuestion(name: "device.local", type: .aaaa)],
            ])
        #expect(harness.commissionableNodes.map(\.port) == [5540])
        // Resolved within the first round: the browse for one discriminator ends without a second.
        #expect(harness.queries.allSatisfy { $0.at == .zero })
        // A browse for every device goes on; nothing is missing by its second round, so it repeats only the browse.
        var all = Harness(.commissionable(.all), timeout: .seconds(2), devices: [device])
        try all.run()
        #expect(
            all.queries.first { $0.at == seconds(1) }?.questions == [
                DNSQuestion(name: MatterServiceName.commissionable, type: .ptr)
            ])
    }

    @Test func mergesDuplicateAnswers() throws {
        var machine = DiscoveryStateMachine(target: .commissionable(.all), timeout: .seconds(1))
        _ = machine.start(now: .zero)
        var device = SimulatedDevice.commissionable("DDDDDDDDDDDDDDDD", discriminator: 7, subtypes: [])
        let query = try DNSMessage(questions: [DNSQuestion(name: MatterServiceName.commissionable, type: .ptr)])
            .encoded()
        let first = try #require(try device.answer(query))
        // The first answer resolves the device; the same answer again changes nothing and reports nothing.
        let resolved = machine.receive(first, now: .zero)
        guard case .resolved(let node) = resolved.first, resolved.count == 1 else {
            Issue.record("\(resolved)"); return
        }
        #expect(node.instanceName == "DDDDDDDDDDDDDDDD")
        #expect(machine.receive(first, now: .zero) == [])
        device.addresses = [IPv6Address("fe80::1"), IPv6Address("::1")].compactMap { $0 }
        #expect(machine.receive(try #require(try device.answer(query)), now: .zero) == [])
        let actions = machine.timerFired(now: seconds(1))
        guard case .finished(.commissionable(let nodes)) = actions.first else { Issue.record("\(actions)"); return }
        #expect(nodes.count == 1)
        #expect(nodes.first?.ipv6Addresses.map(\.description) == ["::1", "fe80::1"])
    }

    @Test func forgetsAnInstanceSaidGoodbyeTo() throws {
        var machine = DiscoveryStateMachine(target: .commissionable(.all), timeout: .seconds(1))
        _ = machine.start(now: .zero)
        let device = SimulatedDevice.commissionable("EEEEEEEEEEEEEEEE", discriminator: 7, subtypes: [])
        let query = try DNSMessage(questions: [DNSQuestion(name: MatterServiceName.commissionable, type: .ptr)])
            .encoded()
        _ = machine.receive(try #require(try device.answer(query)), now: .zero)
        let goodbye = DNSMessage(
            flags: 0x8400,
            answers: [DNSResourceRecord(name: MatterServiceName.commissionable, ttl: 0, data: .ptr(device.instance))])
        _ = machine.receive(try goodbye.encoded(), now: .zero)
        #expect(machine.timerFired(now: seconds(1)) == [.finished(.commissionable([]))])
    }

    @Test func ignoresQueriesAndGarbage() throws {
        var machine = DiscoveryStateMachine(target: .commissionable(.all), timeout: .seconds(1))
        _ = machine.start(now: .zero)
        let query = try DNSMessage(questions: [DNSQuestion(name: MatterServiceName.commissionable, type: .ptr)])
            .encoded()
        #expect(machine.receive(query, now: .zero) == [])
        #expect(machine.receive([0xFF, 0x00], now: .zero) == [])
        #expect(machine.start(now: .zero) == [])
    }
}

extension DiscoveryStateMachineTests {
    /// Thread Border Routers (`_meshcop._udp`): each one that answers, resolved from a minimal responder too, its TXT
    /// record's binary values (extended address, Extended PAN ID) read as sent, not as text.
    @Test func threadBorderRoutersAreBrowsedWithTheirBinaryTXTValues() throws {
        let extendedAddress: [UInt8] = [0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0xCA, 0xFE]
        let extendedPANID: [UInt8] = [0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22]
        let kitchen = SimulatedDevice(
            instance: MatterServiceName.threadBorderAgent.prepending("Kitchen BR"),
            pointerNames: [MatterServiceName.threadBorderAgent], host: "kitchen.local", port: 49154,
            txt: [
                TXTEntry(key: "nn", value: "Home Mesh"), TXTEntry(key: "xp", bytes: extendedPANID),
                TXTEntry(key: "xa", bytes: extendedAddress), TXTEntry(key: "vn", value: "Acme"),
                TXTEntry(key: "mn", value: "Router 2"), TXTEntry(key: "tv", value: "1.3.0"),
                TXTEntry(key: "sb", bytes: [0, 0, 1, 0xB1]),
            ], minimal: true)
        let device = SimulatedDevice.commissionable("AAAAAAAAAAAAAAAA", discriminator: 3840, subtypes: [])
        var harness = Harness(.threadBorderRouters, timeout: .seconds(3), devices: [kitchen, device])
        try harness.run()
        guard case .threadBorderRouters(let routers) = harness.finished?.result else {
            Issue.record("no border routers: \(String(describing: harness.finished))")
            return
        }
        let router = try #require(routers.first)
        #expect(routers.count == 1, "the commissionable device is no border router")
        #expect(router.instanceName == "Kitchen BR" && router.hostName == "kitchen.local" && router.port == 49154)
        #expect(router.extendedAddress == 0xDEAD_00BE_EF00_CAFE && router.extendedPANID == 0x1111_1111_2222_2222)
        #expect(router.networkName == "Home Mesh" && router.vendorName == "Acme" && router.modelName == "Router 2")
        #expect(router.threadVersion == "1.3.0" && router.stateBitmap == [0, 0, 1, 0xB1])
        #expect(router.ipv6Addresses.map(\.description) == ["::1"])
        #expect(harness.queries.first?.questions.map(\.name.description) == ["_meshcop._udp.local"])
    }
}
