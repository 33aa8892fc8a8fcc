import Testing

@testable import MatterInteraction

@Suite struct SubscriptionLivenessTests {
    /// A virtual clock's instant for the tests; the driver supplies its own.
    struct Moment: InstantProtocol, Sendable {
        var offset: Duration
        func advanced(by duration: Duration) -> Moment { Moment(offset: offset + duration) }
        func duration(to other: Moment) -> Duration { other.offset - offset }
        static func < (lhs: Moment, rhs: Moment) -> Bool { lhs.offset < rhs.offset }
    }

    static func at(_ milliseconds: Int64) -> Moment { Moment(offset: .milliseconds(milliseconds)) }

    @Test func lostExactlyAfterMaxIntervalPlusTheRetransmissionAllowance() {
        let liveness = SubscriptionLiveness(
            maxInterval: .seconds(60), retransmissionAllowance: .milliseconds(9_300), establishedAt: Self.at(1_000))
        #expect(liveness.deadline == Self.at(70_300))
        #expect(liveness.check(now: Self.at(70_299)) == .alive(until: Self.at(70_300)))
        #expect(liveness.check(now: Self.at(70_300)) == .alive(until: Self.at(70_300)))
        #expect(liveness.check(now: Moment(offset: .milliseconds(70_300) + .nanoseconds(1))) == .lost)
    }

    @Test func eachReportMovesTheDeadline() {
        var liveness = SubscriptionLiveness(
            maxInterval: .seconds(10), retransmissionAllowance: .seconds(2), establishedAt: Self.at(0))
        liveness.reportReceived(at: Self.at(9_000))
        #expect(liveness.check(now: Self.at(20_000)) == .alive(until: Self.at(21_000)))
        #expect(liveness.check(now: Self.at(21_001)) == .lost)
    }

    @Test func aLateDeliveredOlderReportDoesNotMoveItBack() {
        var liveness = SubscriptionLiveness(
            maxInterval: .seconds(10), retransmissionAllowance: .zero, establishedAt: Self.at(5_000))
        liveness.reportReceived(at: Self.at(3_000))
        #expect(liveness.lastReport == Self.at(5_000))
        #expect(liveness.deadline == Self.at(15_000))
    }
}
