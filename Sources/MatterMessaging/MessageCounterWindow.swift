// Matter Core §4.5.4 Message Reception State, §4.5.5 / §4.5.6 counter processing of received messages
/// Duplicate detection for the messages of one peer and key: the highest counter seen plus a bitmap of
/// which of the `MessagingConstants.messageCounterWindowSize` counters just behind it were seen.
public struct MessageCounterWindow: Sendable, Hashable {
    /// Which of the spec's three counter-processing rules applies.
    public enum Policy: Sendable, Hashable {
        /// §4.5.5, secure unicast sessions: counters never roll over, so anything after the maximum is new and
        /// anything behind the window is a duplicate.
        case secureUnicast
        /// §4.5.5, group messages: counters roll over, so up to 2^31 − 1 ahead (modulo 2^32) is new and
        /// anything behind the window is a duplicate.
        case group
        /// §4.5.6, unsecured messages: counters roll over, and a counter behind the window means the peer
        /// restarted, so it is new and the window moves back to it.
        case unsecured
    }

    public enum Verdict: Sendable, Hashable {
        case new
        case duplicate
    }

    public let policy: Policy
    /// The highest counter accepted so far; nil until the first message.
    public private(set) var maximumCounter: UInt32?
    /// Bit n − 1 is set when counter `maximumCounter − n` was seen, for n in 1...window size.
    private var seenBehindMaximum: UInt32 = 0

    public init(policy: Policy) {
        self.policy = policy
    }

    /// A window already synchronized to `maximumCounter` with nothing behind it seen, as connectedhomeip starts
    /// every new session (peer counter kInitialSyncValue 0): the peer's first messages are then accepted in
    /// whatever order they arrive, instead of everything before the first arrival counting as seen.
    public init(policy: Policy, synchronizedTo maximumCounter: UInt32) {
        self.policy = policy
        self.maximumCounter = maximumCounter
    }

    /// Decides whether `counter` is new, and if so records it. Call it only for messages that authenticated.
    public mutating func accept(_ counter: UInt32) -> Verdict {
        guard let maximum = maximumCounter else {
            // §4.5.4: the first counter starts the state; nothing before it is accepted later.
            maximumCounter = counter
            seenBehindMaximum = .max
            return .new
        }
        if counter == maximum { return .duplicate }

        let distanceAhead = counter &- maximum
        let isAhead =
            switch policy {
            case .secureUnicast: counter > maximum
            case .group, .unsecured: distanceAhead < Self.rolloverHalfRange
            }
        if isAhead {
            advance(to: counter, by: distanceAhead)
            return .new
        }

        let distanceBehind = maximum &- counter
        if distanceBehind <= MessagingConstants.messageCounterWindowSize {
            let bit: UInt32 = 1 << (distanceBehind - 1)
            if seenBehindMaximum & bit != 0 { return .duplicate }
            seenBehindMaximum |= bit
            return .new
        }
        switch policy {
        case .secureUnicast, .group:
            return .duplicate
        case .unsecured:
            maximumCounter = counter
            seenBehindMaximum = 0
            return .new
        }
    }

    /// Counters that roll over are compared modulo 2^32: up to half the range ahead counts as "after".
    private static let rolloverHalfRange: UInt32 = 1 << 31

    private mutating func advance(to counter: UInt32, by distance: UInt32) {
        if distance <= MessagingConstants.messageCounterWindowSize {
            // The old maximum becomes the counter `distance` behind the new one.
            seenBehindMaximum = (seenBehindMaximum << distance) | (1 << (distance - 1))
        } else {
            seenBehindMaximum = 0
        }
        maximumCounter = counter
    }
}
