import MatterTime
import Testing

@testable import MatterBTP

/// A central and a peripheral over a simulated BLE link on virtual time: each GATT operation reaches the other side
/// after a delay drawn for it, and is confirmed to its sender after another; packets in one direction stay in order
/// (the next waits for the confirmation), while the two directions interleave as the delays fall.
struct SimulatedGATTLink {
    enum Side: Hashable { case central, peripheral }
    private enum Event {
        case arrive([UInt8], at: Side)
        case confirm(Side)
    }

    var central: BTPSession
    var peripheral: BTPSession?
    var now = BTPSessionTests.start
    private var events: [(at: Instant, order: Int, event: Event)] = []
    private var order = 0
    private var random: UInt64
    /// Delays are drawn from this range, in milliseconds.
    let delays: ClosedRange<UInt64>
    /// Packets a side sends that never arrive: a peer gone silent.
    var silenced: Set<Side> = []
    /// Extra delay before the peripheral's first confirmation (its handshake response's).
    var lateFirstPeripheralConfirmation: Duration = .zero
    private var peripheralConfirmations = 0
    private(set) var delivered: [Side: [[UInt8]]] = [:]
    private(set) var closed: [Side: BTPError] = [:]
    private(set) var packets: [Side: Int] = [:]

    init(seed: UInt64, delays: ClosedRange<UInt64> = 1...30) {
        random = seed
        self.delays = delays
        let (central, actions) = BTPSession.central(attMTU: 0, now: BTPSessionTests.start)
        self.central = central
        execute(actions, from: .central)
    }

    private mutating func delay() -> Duration {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return .milliseconds(Int64(delays.lowerBound + (random >> 33) % (delays.upperBound - delays.lowerBound + 1)))
    }

    private mutating func schedule(_ event: Event, after delay: Duration) {
        order += 1
        events.append((now + delay, order, event))
    }

    mutating func execute(_ actions: [BTPSession.Action], from side: Side) {
        for action in actions {
            switch action {
            case .send(let bytes):
                packets[side, default: 0] += 1
                let arrival = delay()
                if !silenced.contains(side) {
                    schedule(.arrive(bytes, at: side == .central ? .peripheral : .central), after: arrival)
                }
                var confirmation = arrival + delay()
                if side == .peripheral {
                    peripheralConfirmations += 1
                    if peripheralConfirmations == 1 { confirmation += lateFirstPeripheralConfirmation }
                }
                if !silenced.contains(side) { schedule(.confirm(side), after: confirmation) }
            case .deliver(let message): delivered[side, default: []].append(message)
            case .close(let error): closed[side] = error
            }
        }
    }

    mutating func send(_ message: [UInt8], from side: Side) throws {
        switch side {
        case .central: execute(try central.send(message, now: now), from: .central)
        case .peripheral:
            guard var session = peripheral else { return }
            let actions = try session.send(message, now: now)
            peripheral = session
            execute(actions, from: .peripheral)
        }
    }

    /// Runs events and timers in time order up to `end`.
    mutating func run(until end: Instant) {
        while true {
            let nextEvent = events.min { ($0.at, $0.order) < ($1.at, $1.order) }
            let deadlines = [central.nextDeadline, peripheral?.nextDeadline].compactMap { $0 }
            let next = ([nextEvent?.at] + deadlines.map { Optional($0) }).compactMap { $0 }.min()
            guard let next, next <= end else { break }
            now = next
            if let event = nextEvent, event.at == next {
                events.removeAll { $0.order == event.order }
                handle(event.event)
                continue
            }
            if let deadline = central.nextDeadline, deadline <= now {
                execute(central.handleTimer(now: now), from: .central)
            }
            if var session = peripheral, let deadline = session.nextDeadline, deadline <= now {
                let actions = session.handleTimer(now: now)
                peripheral = session
                execute(actions, from: .peripheral)
            }
        }
        now = max(now, end)
    }

    private mutating func handle(_ event: Event) {
        switch event {
        case .arrive(let bytes, .peripheral):
            guard var session = peripheral else {
                do {
                    let (session, actions) = try BTPSession.peripheral(
                        request: bytes, maximumSegmentSize: 100, now: now)
                    peripheral = session
                    execute(actions, from: .peripheral)
                } catch {
                    closed[.peripheral] = error
                }
                return
            }
            let actions = session.received(bytes, now: now)
            peripheral = session
            execute(actions, from: .peripheral)
        case .arrive(let bytes, .central):
            execute(central.received(bytes, now: now), from: .central)
        case .confirm(.central):
            execute(central.packetConfirmed(now: now), from: .central)
        case .confirm(.peripheral):
            guard var session = peripheral else { return }
            let actions = session.packetConfirmed(now: now)
            peripheral = session
            execute(actions, from: .peripheral)
        }
    }
}

@Suite struct BTPSimulatedLinkTests {
    static func message(_ size: Int, _ tag: UInt8) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ tag }
    }

    /// Messages of every size that matters (one byte, a segment exactly, a full Matter message) both ways at once,
    /// over links with different delays: each arrives whole and in order, nothing closes.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func messagesCrossWholeAndInOrder(seed: UInt64) throws {
        var link = SimulatedGATTLink(seed: seed, delays: seed == 4 ? 20...200 : 1...30)
        link.run(until: BTPSessionTests.start + .milliseconds(500))
        #expect(link.central.isConnected)
        #expect(link.central.segmentSize == 100)
        let sizes = [1, 19, 20, 95, 96, 100, 1000, 1232, 7, 300]
        for (index, size) in sizes.enumerated() {
            try link.send(Self.message(size, UInt8(index)), from: .central)
            try link.send(Self.message(size, UInt8(index) | 0x80), from: .peripheral)
        }
        link.run(until: link.now + .seconds(20))
        #expect(link.closed.isEmpty, "\(link.closed)")
        #expect(link.delivered[.peripheral] == sizes.enumerated().map { Self.message($1, UInt8($0)) })
        #expect(link.delivered[.central] == sizes.enumerated().map { Self.message($1, UInt8($0) | 0x80) })
    }

    /// The central's first data can reach the peripheral before the peripheral hears that its handshake response was
    /// indicated: the peripheral is connected from the moment it answered.
    @Test func dataBeforeTheResponsesConfirmationIsTaken() throws {
        var link = SimulatedGATTLink(seed: 9)
        link.lateFirstPeripheralConfirmation = .seconds(1)
        link.run(until: BTPSessionTests.start + .milliseconds(100))
        #expect(link.central.isConnected)
        try link.send(Self.message(250, 1), from: .central)
        link.run(until: link.now + .seconds(3))
        #expect(link.closed.isEmpty)
        #expect(link.delivered[.peripheral] == [Self.message(250, 1)])
    }

    /// Once the messages stop, the two sides keep acknowledging each other's acknowledgements (BTP's keep-alive) and
    /// nothing times out; the central closes after BTP_CONN_IDLE_TIMEOUT without data of its own.
    @Test func anIdleConnectionStaysUpUntilTheCentralsIdleTimeout() throws {
        var link = SimulatedGATTLink(seed: 5)
        link.run(until: BTPSessionTests.start + .milliseconds(100))
        try link.send(Self.message(40, 2), from: .central)
        link.run(until: link.now + .milliseconds(200))
        let lastData = link.now
        link.run(until: lastData + .seconds(29))
        #expect(link.closed.isEmpty)
        let acknowledgements = link.packets[.central, default: 0] + link.packets[.peripheral, default: 0]
        #expect(acknowledgements > 10, "standalone acknowledgements went back and forth")
        link.run(until: lastData + .seconds(31))
        #expect(link.closed[.central] == .idle)
    }

    /// A peripheral that goes silent: the central's unacknowledged data closes the connection after BTP_ACK_TIMEOUT.
    @Test func aSilentPeerTimesOut() throws {
        var link = SimulatedGATTLink(seed: 6)
        link.run(until: BTPSessionTests.start + .milliseconds(100))
        link.silenced = [.peripheral]
        let sentAt = link.now
        try link.send(Self.message(10, 3), from: .central)
        link.run(until: sentAt + .seconds(14))
        #expect(link.closed.isEmpty)
        link.run(until: sentAt + .seconds(16))
        #expect(link.closed[.central] == .acknowledgementTimedOut)
    }
}
