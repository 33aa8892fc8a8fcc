import MatterTime
import Testing

@testable import MatterInteraction

@Suite struct SubscriptionLivenessTests {
    static func at(_ milliseconds: Int64) -> Instant { Instant(since: .milliseconds(milliseconds)) }

    @Test func lostExactlyAfterMaxIntervalPlusTheRetransmissionAllowance() {
        let liveness = SubscriptionLiveness(
            maxInterval: .seconds(60), retransmissionAllowance: .milliseconds(9_300), establishedAt: Self.at(1_000))
        #expect(liveness.deadline == Self.at(70_300))
        #expect(liveness.check(now: Self.at(70_299)) == .alive(until: Self.at(70_300)))
        #expect(liveness.check(now: Self.at(70_300)) == .alive(until: Self.at(70_300)))
        #expect(liveness.check(now: Instant(since: .milliseconds(70_300) + .nanoseconds(1))) == .lost)
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
