import MatterTestSupport
import Testing

/// Records what reaches it and can ask for timers at given times.
private final class Recorder: SimulatedNode {
    var received: [(time: Duration, sender: SimulatedNetwork.Address, bytes: [UInt8])] = []
    var timerFirings: [Duration] = []
    var pendingTimers: [Duration]
    var replyTo: SimulatedNetwork.Address?

    init(timers: [Duration] = []) {
        pendingTimers = timers
    }

    var nextDeadline: Duration? { pendingTimers.first }

    func receive(
        _ datagram: [UInt8], from sender: SimulatedNetwork.Address, now: Duration
    ) -> [SimulatedNetwork.Outgoing] {
        received.append((now, sender, datagram))
        return replyTo.map { [SimulatedNetwork.Outgoing(to: $0, bytes: datagram.reversed())] } ?? []
    }

    func handleTimer(now: Duration) -> [SimulatedNetwork.Outgoing] {
        timerFirings.append(now)
        pendingTimers.removeFirst()
        return []
    }
}

@Suite("SimulatedNetwork")
struct SimulatedNetworkTests {
    @Test func deliversAfterTheBaseDelayAndCarriesReplies() {
        var network = SimulatedNetwork(seed: 1, conditions: .init(baseDelay: .milliseconds(5)))
        let client = Recorder()
        let server = Recorder()
        let clientAddress = network.attach(client)
        let serverAddress = network.attach(server)
        server.replyTo = clientAddress
        network.send([1, 2, 3], from: clientAddress, to: serverAddress)
        let wentIdle = network.runUntilIdle(notAfter: .seconds(1))
        #expect(wentIdle)
        #expect(server.received.map(\.time) == [.milliseconds(5)])
        #expect(server.received.map(\.sender) == [clientAddress])
        #expect(client.received.map(\.bytes) == [[3, 2, 1]])
        #expect(client.received.map(\.time) == [.milliseconds(10)])
        #expect(network.now == .milliseconds(10))
        #expect(network.statistics == .init(sent: 2, lost: 0, duplicated: 0, delivered: 2))
    }

    @Test func losesDuplicatesAndDelaysPerLink() {
        var network = SimulatedNetwork(seed: 2)
        let a = Recorder()
        let b = Recorder()
        let addressA = network.attach(a)
        let addressB = network.attach(b)
        network.setConditions(.init(lossProbability: 1), from: addressA, to: addressB)
        network.setConditions(
            .init(duplicationProbability: 1, baseDelay: .milliseconds(3)), from: addressB, to: addressA)
        for index in UInt8(0)..<10 {
            network.send([index], from: addressA, to: addressB)
            network.send([index], from: addressB, to: addressA)
        }
        network.runUntilIdle(notAfter: .seconds(1))
        #expect(b.received.isEmpty)
        #expect(a.received.map(\.bytes) == (UInt8(0)..<10).flatMap { [[$0], [$0]] })
        #expect(a.received.allSatisfy { $0.time == .milliseconds(3) })
        #expect(network.statistics == .init(sent: 20, lost: 10, duplicated: 10, delivered: 20))
    }

    @Test func extraDelayReordersWithinItsBound() {
        var network = SimulatedNetwork(
            seed: 3, conditions: .init(baseDelay: .milliseconds(1), maximumExtraDelay: .milliseconds(10)))
        let sender = network.attach(Recorder())
        let receiver = Recorder()
        let receiverAddress = network.attach(receiver)
        for index in UInt8(0)..<50 {
            network.send([index], from: sender, to: receiverAddress)
        }
        network.runUntilIdle(notAfter: .seconds(1))
        let order = receiver.received.map { $0.bytes[0] }
        #expect(order.sorted() == Array(0..<50))
        #expect(order != Array(0..<50))
        #expect(receiver.received.allSatisfy { $0.time >= .milliseconds(1) && $0.time < .milliseconds(11) })
        #expect(receiver.received.map(\.time) == receiver.received.map(\.time).sorted())
    }

    @Test func theSameSeedGivesTheSameRun() {
        func run(seed: UInt64) -> [Duration] {
            var network = SimulatedNetwork(
                seed: seed,
                conditions: .init(
                    lossProbability: 0.3, duplicationProbability: 0.3, maximumExtraDelay: .milliseconds(20)))
            let sender = network.attach(Recorder())
            let receiver = Recorder()
            let receiverAddress = network.attach(receiver)
            for index in UInt8(0)..<40 {
                network.send([index], from: sender, to: receiverAddress)
            }
            network.runUntilIdle(notAfter: .seconds(1))
            return receiver.received.map(\.time)
        }
        #expect(run(seed: 42) == run(seed: 42))
        #expect(run(seed: 42) != run(seed: 43))
    }

    @Test func firesTimersInTimeOrderAndStopsAtTheLimit() {
        var network = SimulatedNetwork(seed: 4)
        let early = Recorder(timers: [.milliseconds(2), .milliseconds(30)])
        let late = Recorder(timers: [.milliseconds(20), .seconds(10)])
        _ = network.attach(early)
        _ = network.attach(late)
        network.advance(to: .milliseconds(25))
        #expect(early.timerFirings == [.milliseconds(2)])
        #expect(late.timerFirings == [.milliseconds(20)])
        #expect(network.now == .milliseconds(25))
        let idleWithinASecond = network.runUntilIdle(notAfter: .seconds(1))
        #expect(!idleWithinASecond)
        #expect(early.timerFirings == [.milliseconds(2), .milliseconds(30)])
        #expect(late.timerFirings == [.milliseconds(20)])
        let idleWithinTenSeconds = network.runUntilIdle(notAfter: .seconds(10))
        #expect(idleWithinTenSeconds)
        #expect(late.timerFirings == [.milliseconds(20), .seconds(10)])
    }
}
