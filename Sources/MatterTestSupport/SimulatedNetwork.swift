import MatterMessaging

/// A deterministic discrete-event network for sans-IO protocol tests. Nodes exchange opaque datagrams; every
/// link can lose, duplicate, delay and reorder them; time is virtual (a `Duration` since the simulation began)
/// and moves only in `advance(to:)` and `runUntilIdle(notAfter:)`. The same seed gives the same run.
public struct SimulatedNetwork {
    public struct Address: Hashable, Comparable, Sendable, CustomStringConvertible {
        public let rawValue: Int

        public static func < (lhs: Address, rhs: Address) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String { "node \(rawValue)" }
    }

    /// A datagram a node asks the network to carry.
    public struct Outgoing: Sendable, Hashable {
        public var destination: Address
        public var bytes: [UInt8]

        public init(to destination: Address, bytes: [UInt8]) {
            self.destination = destination
            self.bytes = bytes
        }
    }

    /// What happens to the datagrams of one direction of one link.
    public struct LinkConditions: Sendable, Hashable {
        /// The chance, in 0...1, that a datagram never arrives.
        public var lossProbability: Double
        /// The chance, in 0...1, that a datagram that is not lost arrives twice.
        public var duplicationProbability: Double
        /// The delay every copy has.
        public var baseDelay: Duration
        /// Each copy also waits a random extra delay in 0..<maximumExtraDelay, so later datagrams can overtake.
        public var maximumExtraDelay: Duration

        public init(
            lossProbability: Double = 0, duplicationProbability: Double = 0,
            baseDelay: Duration = .milliseconds(1), maximumExtraDelay: Duration = .zero
        ) {
            self.lossProbability = lossProbability
            self.duplicationProbability = duplicationProbability
            self.baseDelay = baseDelay
            self.maximumExtraDelay = maximumExtraDelay
        }
    }

    /// Counts of what the network did, so a test can check its conditions really applied.
    public struct Statistics: Sendable, Hashable {
        public var sent: Int
        public var lost: Int
        public var duplicated: Int
        public var delivered: Int

        public init(sent: Int = 0, lost: Int = 0, duplicated: Int = 0, delivered: Int = 0) {
            self.sent = sent
            self.lost = lost
            self.duplicated = duplicated
            self.delivered = delivered
        }
    }

    private struct InFlight {
        let arrival: Duration
        /// Breaks ties between equal arrival times in sending order.
        let sequence: Int
        let source: Address
        let destination: Address
        let bytes: [UInt8]
    }

    private struct Link: Hashable {
        let source: Address
        let destination: Address
    }

    /// A run stops after this many events without reaching its end, so a node whose timer never moves
    /// forward cannot hang the test.
    public static let maximumEventsPerRun = 1_000_000

    public private(set) var now: Duration = .zero
    public private(set) var statistics = Statistics()
    private var nodes: [any SimulatedNode] = []
    private var inFlight: [InFlight] = []
    private var nextSequence = 0
    private var defaultConditions: LinkConditions
    private var linkConditions: [Link: LinkConditions] = [:]
    private var generator: SplitMix64

    public init(seed: UInt64, conditions: LinkConditions = LinkConditions()) {
        generator = SplitMix64(seed: seed)
        defaultConditions = conditions
    }

    /// Adds a node and returns its address.
    public mutating func attach(_ node: any SimulatedNode) -> Address {
        nodes.append(node)
        return Address(rawValue: nodes.count - 1)
    }

    /// Overrides the conditions of datagrams from `source` to `destination`.
    public mutating func setConditions(_ conditions: LinkConditions, from source: Address, to destination: Address) {
        linkConditions[Link(source: source, destination: destination)] = conditions
    }

    /// Puts a datagram on the wire now, subject to the link's conditions; one to an address nobody holds is lost.
    public mutating func send(_ bytes: [UInt8], from source: Address, to destination: Address) {
        let conditions = linkConditions[Link(source: source, destination: destination)] ?? defaultConditions
        statistics.sent += 1
        guard nodes.indices.contains(destination.rawValue), unitRandom() >= conditions.lossProbability else {
            statistics.lost += 1
            return
        }
        var copies = 1
        if unitRandom() < conditions.duplicationProbability {
            statistics.duplicated += 1
            copies = 2
        }
        for _ in 0..<copies {
            let extra = Duration.nanoseconds(Int64(Double(nanoseconds(conditions.maximumExtraDelay)) * unitRandom()))
            inFlight.append(
                InFlight(
                    arrival: now + conditions.baseDelay + extra, sequence: nextSequence,
                    source: source, destination: destination, bytes: bytes))
            nextSequence += 1
        }
    }

    /// Runs every delivery and timer due up to `time`, in time order, then sets the clock to `time`.
    public mutating func advance(to time: Duration) {
        var events = 0
        while events < Self.maximumEventsPerRun, runNextEvent(notAfter: time) {
            events += 1
        }
        now = max(now, time)
    }

    /// Runs events until no datagram is in flight and no node waits for its timer, or until the next event
    /// would come after `limit`. Returns whether the network went idle.
    @discardableResult
    public mutating func runUntilIdle(notAfter limit: Duration) -> Bool {
        var events = 0
        while events < Self.maximumEventsPerRun, runNextEvent(notAfter: limit) {
            events += 1
        }
        return inFlight.isEmpty && nodes.allSatisfy { $0.nextDeadline == nil }
    }

    /// Delivers the earliest datagram or fires the earliest timer, whichever comes first (datagrams first on
    /// a tie, then lower addresses); false when nothing is due by `limit`.
    private mutating func runNextEvent(notAfter limit: Duration) -> Bool {
        let delivery = inFlight.indices.min {
            (inFlight[$0].arrival, inFlight[$0].sequence) < (inFlight[$1].arrival, inFlight[$1].sequence)
        }
        let timer = nodes.indices.compactMap { index in nodes[index].nextDeadline.map { (index, $0) } }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }

        if let delivery, inFlight[delivery].arrival <= limit, timer.map({ inFlight[delivery].arrival <= $0.1 }) ?? true
        {
            let datagram = inFlight.remove(at: delivery)
            now = max(now, datagram.arrival)
            statistics.delivered += 1
            let replies = nodes[datagram.destination.rawValue].receive(datagram.bytes, from: datagram.source, now: now)
            sendAll(replies, from: datagram.destination)
            return true
        }
        if let (index, deadline) = timer, deadline <= limit {
            now = max(now, deadline)
            sendAll(nodes[index].handleTimer(now: now), from: Address(rawValue: index))
            return true
        }
        return false
    }

    private mutating func sendAll(_ outgoing: [Outgoing], from source: Address) {
        for datagram in outgoing {
            send(datagram.bytes, from: source, to: datagram.destination)
        }
    }

    /// Uniform in 0..<1 from the top 53 bits, the precision of a Double.
    private mutating func unitRandom() -> Double {
        Double(generator.next() >> 11) * 0x1p-53
    }

    private func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// The simulated network is a datagram network: unreliable, so MRP runs over it.
extension SimulatedNetwork.Address: LinkPeer {
    public var isReliableLink: Bool { false }
    public var maximumMessageSize: Int { MessagingConstants.maximumUDPMessageSize }
}
