import MatterCrypto

// Matter Core §4.5.1.2 Global Group Encrypted Data Message Counter
/// The counter every group message a node sends carries, whatever its group and key. It must never repeat — a
/// counter used twice under one key reuses an AES-CCM nonce — across restarts too, yet writing it for every message
/// would wear storage, so a block ahead is reserved and only the block's end is stored: a restarted node starts at
/// the stored end, skipping whatever of the block it had not used (as connectedhomeip does, 1,000 at a time).
public struct GroupMessageCounter: Sendable, Hashable {
    /// The counter the next message carries.
    public private(set) var next: UInt32
    /// What is stored: no message carried this counter or any after it.
    public private(set) var reservedUntil: UInt32

    /// How many counters one stored reservation covers.
    public static let reservation: UInt32 = 1_000

    /// A node's first counter: random in 1...2^28 (§4.5.1.2), nothing reserved yet.
    public init(random: some RandomSource) {
        let drawn = MessageCounter(kind: .globalUnencrypted, random: random).nextValue ?? 1
        self.init(restoredAt: drawn)
    }

    /// The counter of a restarted node, from what it stored.
    public init(restoredAt stored: UInt32) {
        next = stored
        reservedUntil = stored
    }

    /// The counter for the message about to be sent, and the reservation to store before it goes out when the
    /// block is spent (nil otherwise). Counters roll over (§4.5.1.2): receivers compare them modulo 2^32.
    public mutating func take() -> (counter: UInt32, reserve: UInt32?) {
        var reserve: UInt32?
        if next == reservedUntil {
            reservedUntil = next &+ Self.reservation
            reserve = reservedUntil
        }
        defer { next = next &+ 1 }
        return (next, reserve)
    }
}
