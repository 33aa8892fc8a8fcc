import HTTPWebSocket
import MatterTime
import Testing

/// The head gate's rules: a place per connection still sending its head, bounded per peer and in all, given back when
/// the head is whole or the connection closes, and taken away when its time is up.
@Suite struct HTTPHeadGateTests {
    typealias Gate = HTTPHeadGate<Int, String>

    @Test func onePeerCannotTakeEveryPlace() {
        var gate = Gate(limits: .init(headTime: .seconds(10), perPeer: 3, inAll: 10))
        let now = Instant.zero
        for connection in 0..<3 {
            #expect(gate.admit(connection, from: "a", at: now) == .admitted(until: now + .seconds(10)))
        }
        guard case .refused(let error) = gate.admit(3, from: "a", at: now) else {
            Issue.record("a fourth connection from one peer was admitted")
            return
        }
        #expect(error.status == 503 && error.reason.contains("3 connections"))
        #expect(gate.admit(4, from: "b", at: now) == .admitted(until: now + .seconds(10)), "another peer has room")
        // A head that ends gives its place back to its peer; leaving twice gives back one.
        gate.leave(1)
        gate.leave(1)
        #expect(gate.admit(5, from: "a", at: now) == .admitted(until: now + .seconds(10)))
        #expect(gate.admit(6, from: "a", at: now) != .admitted(until: now + .seconds(10)))
        #expect(gate.count == 4)
    }

    @Test func allPeersTogetherHaveABound() {
        var gate = Gate(limits: .init(headTime: .seconds(10), perPeer: 2, inAll: 5))
        for connection in 0..<5 {
            #expect(
                gate.admit(connection, from: "peer \(connection)", at: .zero) == .admitted(until: .zero + .seconds(10)))
        }
        guard case .refused(let error) = gate.admit(5, from: "a new peer", at: .zero) else {
            Issue.record("a sixth connection was admitted past the bound of five")
            return
        }
        #expect(error.status == 503 && error.reason.contains("too many connections"))
        gate.leave(0)
        #expect(gate.admit(5, from: "a new peer", at: .zero) == .admitted(until: .zero + .seconds(10)))
    }

    @Test func aConnectionOutOfTimeIsDueAndOneWhoseHeadEndedNeverIs() {
        var gate = Gate(limits: .init(headTime: .seconds(10), perPeer: 4, inAll: 10))
        let start = Instant.zero + .seconds(100)
        _ = gate.admit(1, from: "a", at: start)
        _ = gate.admit(2, from: "a", at: start + .seconds(3))
        _ = gate.admit(3, from: "a", at: start + .seconds(4))
        gate.leave(2)  // its head arrived
        #expect(gate.nextDeadline == start + .seconds(10))
        #expect(gate.expired(at: start + .milliseconds(9_999)).isEmpty)
        #expect(gate.expired(at: start + .seconds(10)) == [1])
        #expect(gate.nextDeadline == start + .seconds(14), "the connection whose head ended is not waited for")
        #expect(gate.expired(at: start + .seconds(13)).isEmpty)
        #expect(gate.expired(at: start + .seconds(20)) == [3])
        #expect(gate.nextDeadline == nil && gate.count == 0)
        // The peer's places came back with them.
        for connection in 10..<14 {
            #expect(
                gate.admit(connection, from: "a", at: start + .seconds(20)) == .admitted(until: start + .seconds(30)))
        }
        #expect(gate.timeoutError.status == 408)
    }
}
