import MatterCrypto

// Matter Core §4.5.1 Message Counter Types, §4.5.2 initialization
/// The counter a node stamps on the messages it sends: one global counter for unsecured messages and one
/// per secure session.
public struct MessageCounter: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// §4.5.1.1 Global Unencrypted Message Counter: rolls over from 2^32 − 1 to 0.
        case globalUnencrypted
        /// §4.5.1.3 Secure Session Message Counter: never rolls over; once spent the session must be
        /// re-established, because reusing a counter would reuse an AES-CCM nonce under the same key.
        case secureSession
    }

    public let kind: Kind
    /// The counter the next message will carry; nil once a secure session counter is spent.
    public private(set) var nextValue: UInt32?

    /// §4.5.2: every counter starts at a random value in 1...2^28 (Crypto_DRBG(len = 28) + 1).
    public init(kind: Kind, random: some RandomSource) {
        let bytes = random.bytes(MemoryLayout<UInt32>.size)
        let drawn = bytes.reversed().reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        let initialRange = MessagingConstants.counterInitialUpperBound - MessagingConstants.counterInitialLowerBound + 1
        self.init(kind: kind, startingAt: MessagingConstants.counterInitialLowerBound + drawn % initialRange)
    }

    /// A counter resuming at a known value, as after restoring persisted state.
    public init(kind: Kind, startingAt value: UInt32) {
        self.kind = kind
        self.nextValue = value
    }

    /// Returns the counter for the message about to be sent and advances.
    public mutating func next() throws(MessageError) -> UInt32 {
        guard let value = nextValue else { throw .counterExhausted }
        switch kind {
        case .globalUnencrypted:
            nextValue = value &+ 1
        case .secureSession:
            nextValue = value == .max ? nil : value + 1
        }
        return value
    }
}
