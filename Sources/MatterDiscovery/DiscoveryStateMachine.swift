// RFC 6762 §5.2 continuous querying and RFC 6763 §4–§5 browse and resolve, for Matter Core §4.3 names.
/// One discovery, sans-IO: feed it the time and the packets heard, execute the actions it returns.
/// Only one timer exists at a time; each `armTimer` replaces the previous one.
public struct DiscoveryStateMachine: Sendable {
    public enum Action: Hashable, Sendable {
        /// Send this query to the mDNS group on every interface the caller chose.
        case send([UInt8])
        /// Call `timerFired(now:)` at this instant.
        case armTimer(Instant)
        /// A commissionable node matching the filter is now fully resolved (once per node, as soon as it is): a
        /// commissioner can start with it while the discovery goes on.
        case resolved(CommissionableNode)
        /// The discovery is over; nothing else will come.
        case finished(DiscoveryResult)
    }

    public enum DiscoveryResult: Hashable, Sendable {
        /// Every matching node resolved before the timeout, ordered by instance name.
        case commissionable([CommissionableNode])
        /// The node, or nil when it was not resolved before the timeout.
        case operational(OperationalNode?)
        /// Every border router resolved before the timeout (its SRV, TXT and an address), by instance name.
        case threadBorderRouters([ThreadBorderRouter])
    }

    private enum State { case idle, running, finished }

    public let target: DiscoveryTarget
    private let timeout: Duration
    private var state = State.idle
    private var deadline = Instant.zero
    private var nextQuery = Instant.zero
    private var interval = DiscoveryTiming.firstRequeryInterval
    private var cache = DiscoveryRecordCache()
    /// Follow-up questions already sent since the last full query, so each is asked once per round.
    private var asked: Set<DNSQuestion> = []
    /// Instances already reported as `resolved`.
    private var reported: Set<String> = []

    public init(target: DiscoveryTarget, timeout: Duration) {
        self.target = target
        self.timeout = timeout
    }

    public mutating func start(now: Instant) -> [Action] {
        guard state == .idle else { return [] }
        state = .running
        deadline = now + timeout
        return query(now: now) + [.armTimer(min(nextQuery, deadline))]
    }

    /// Takes one received packet. Queries, malformed packets and records that change nothing are ignored.
    public mutating func receive(_ packet: [UInt8], now: Instant) -> [Action] {
        guard state == .running, let message = try? DNSMessage(decoding: packet), message.isResponse else { return [] }
        var changed = false
        for record in message.allRecords where cache.insert(record) { changed = true }
        guard changed else { return [] }
        if case .operational(let peer) = target, let node = operationalNode(peer) {
            state = .finished
            return [.finished(.operational(node))]
        }
        let fresh = followUpQuestions().filter { !asked.contains($0) }
        asked.formUnion(fresh)
        return newlyResolved() + packets(fresh).map(Action.send) + settleOnFirstMatch(now: now)
    }

    private mutating func newlyResolved() -> [Action] {
        guard case .commissionable(let nodes) = result else { return [] }
        return nodes.filter { reported.insert($0.instanceName).inserted }.map(Action.resolved)
    }

    /// A browse for a discriminator wants one device: once one is resolved, wait only `DiscoveryTiming.matchSettle`
    /// more for others that answered the same query. A browse for every device keeps its whole window.
    private mutating func settleOnFirstMatch(now: Instant) -> [Action] {
        guard case .commissionable(let filter) = target, filter != .all, now + DiscoveryTiming.matchSettle < deadline,
            case .commissionable(let nodes) = result, !nodes.isEmpty
        else { return [] }
        deadline = now + DiscoveryTiming.matchSettle
        return [.armTimer(min(nextQuery, deadline))]
    }

    public mutating func timerFired(now: Instant) -> [Action] {
        guard state == .running else { return [] }
        if now >= deadline {
            state = .finished
            return [.finished(result)]
        }
        let actions = now >= nextQuery ? query(now: now) : []
        return actions + [.armTimer(min(nextQuery, deadline))]
    }

    // MARK: Queries

    /// A full round: the base questions plus every follow-up still unanswered; then back off.
    private mutating func query(now: Instant) -> [Action] {
        let followUps = followUpQuestions()
        asked = Set(followUps)
        nextQuery = now + interval
        interval = min(interval * DiscoveryTiming.requeryBackoffFactor, DiscoveryTiming.maximumRequeryInterval)
        return packets(baseQuestions + followUps.filter { !baseQuestions.contains($0) }).map(Action.send)
    }

    private var baseQuestions: [DNSQuestion] {
        switch target {
        case .commissionable(let filter):
            let subtype = filter.subtype.map { [DNSQuestion(name: $0.serviceName, type: .ptr)] } ?? []
            return subtype + [DNSQuestion(name: MatterServiceName.commissionable, type: .ptr)]
        case .operational(let peer):
            return [
                DNSQuestion(name: peer.serviceInstanceName, type: .srv),
                DNSQuestion(name: peer.serviceInstanceName, type: .txt),
            ]
        case .threadBorderRouters:
            return [DNSQuestion(name: MatterServiceName.threadBorderAgent, type: .ptr)]
        }
    }

    /// SRV/TXT for instances heard only by PTR, A/AAAA for hosts heard only by SRV.
    private func followUpQuestions() -> [DNSQuestion] {
        let instances: [DNSName]
        switch target {
        case .commissionable(let filter):
            instances = commissionableInstances(filter).filter { acceptance($0, filter) != .rejected }
        case .operational(let peer):
            instances = [peer.serviceInstanceName]
        case .threadBorderRouters:
            instances = borderAgentInstances
        }
        var questions: [DNSQuestion] = []
        for instance in instances {
            if cache.services[instance] == nil { questions.append(DNSQuestion(name: instance, type: .srv)) }
            if cache.texts[instance] == nil { questions.append(DNSQuestion(name: instance, type: .txt)) }
            if let host = cache.services[instance]?.target, !hasAddresses(host) {
                questions += [DNSQuestion(name: host, type: .a), DNSQuestion(name: host, type: .aaaa)]
            }
        }
        return questions
    }

    /// Queries split so each packet stays small. The names come from our constants or from packets
    /// the decoder accepted under the same limits the encoder checks, so encoding cannot fail.
    private func packets(_ questions: [DNSQuestion]) -> [[UInt8]] {
        stride(from: 0, to: questions.count, by: DiscoveryLimits.maximumQuestionsPerQuery).compactMap { start in
            let chunk = questions[start..<min(start + DiscoveryLimits.maximumQuestionsPerQuery, questions.count)]
            return try? DNSMessage(questions: Array(chunk)).encoded()
        }
    }

    // MARK: Results

    private enum Acceptance { case accepted, rejected, undecided }

    /// Instances heard under the whole service or under the filter's subtype, in the order first heard.
    private func commissionableInstances(_ filter: CommissionableFilter) -> [DNSName] {
        let browsed = cache.pointers[MatterServiceName.commissionable] ?? []
        let subtyped = filter.subtype.flatMap { cache.pointers[$0.serviceName] } ?? []
        var seen: Set<DNSName> = []
        return (subtyped + browsed).filter { instance in
            instance.labels.count == MatterServiceName.commissionable.labels.count + 1
                && instance.hasSuffix(MatterServiceName.commissionable) && seen.insert(instance).inserted
        }
    }

    /// The TXT `D=` decides; without a readable D, only the subtype the device advertised can vouch for it.
    private func acceptance(_ instance: DNSName, _ filter: CommissionableFilter) -> Acceptance {
        guard let entries = cache.texts[instance] else { return .undecided }
        if let discriminator = MatterTXTRecord(entries: entries).longDiscriminator {
            return filter.matches(longDiscriminator: discriminator) ? .accepted : .rejected
        }
        guard let subtype = filter.subtype else { return .accepted }
        return cache.pointers[subtype.serviceName]?.contains(instance) == true ? .accepted : .rejected
    }

    private var result: DiscoveryResult {
        switch target {
        case .commissionable(let filter):
            let nodes = commissionableInstances(filter).compactMap { instance -> CommissionableNode? in
                guard acceptance(instance, filter) == .accepted, let location = cache.services[instance],
                    let entries = cache.texts[instance], let label = instance.labels.first
                else { return nil }
                let ipv4 = cache.ipv4[location.target] ?? [], ipv6 = cache.ipv6[location.target] ?? []
                guard !ipv4.isEmpty || !ipv6.isEmpty else { return nil }
                return CommissionableNode(
                    instanceName: label, hostName: location.target, port: location.port,
                    ipv4Addresses: ipv4, ipv6Addresses: ipv6, txt: MatterTXTRecord(entries: entries)
                )
            }
            return .commissionable(nodes.sorted { $0.instanceName < $1.instanceName })
        case .operational(let peer):
            return .operational(operationalNode(peer))
        case .threadBorderRouters:
            let routers = borderAgentInstances.compactMap { instance -> ThreadBorderRouter? in
                guard let location = cache.services[instance], let entries = cache.texts[instance],
                    let label = instance.labels.first
                else { return nil }
                let ipv4 = cache.ipv4[location.target] ?? [], ipv6 = cache.ipv6[location.target] ?? []
                guard !ipv4.isEmpty || !ipv6.isEmpty else { return nil }
                return ThreadBorderRouter(
                    instanceName: label, hostName: location.target, port: location.port, ipv4Addresses: ipv4,
                    ipv6Addresses: ipv6, txt: entries)
            }
            return .threadBorderRouters(routers.sorted { $0.instanceName < $1.instanceName })
        }
    }

    /// Border agents heard by PTR, in the order first heard.
    private var borderAgentInstances: [DNSName] {
        (cache.pointers[MatterServiceName.threadBorderAgent] ?? []).filter {
            $0.labels.count == MatterServiceName.threadBorderAgent.labels.count + 1
                && $0.hasSuffix(MatterServiceName.threadBorderAgent)
        }
    }

    private func operationalNode(_ peer: OperationalPeerID) -> OperationalNode? {
        let instance = peer.serviceInstanceName
        guard let location = cache.services[instance] else { return nil }
        let ipv4 = cache.ipv4[location.target] ?? [], ipv6 = cache.ipv6[location.target] ?? []
        guard !ipv4.isEmpty || !ipv6.isEmpty else { return nil }
        return OperationalNode(
            peerID: peer, hostName: location.target, port: location.port,
            ipv4Addresses: ipv4, ipv6Addresses: ipv6, txt: MatterTXTRecord(entries: cache.texts[instance] ?? [])
        )
    }

    private func hasAddresses(_ host: DNSName) -> Bool {
        cache.ipv4[host]?.isEmpty == false || cache.ipv6[host]?.isEmpty == false
    }
}
