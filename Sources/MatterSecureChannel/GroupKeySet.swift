import MatterCrypto

// Matter Core §4.17.3 Group key sets, §11.2.5.4 GroupKeySetStruct: up to three epoch keys, each valid from its start
// time, so an administrator rotates a group's key without cutting members off: a sender uses the newest key already
// in force, a receiver tries every one it holds.
/// One group key set of a fabric: its ID, its counter policy and its epoch keys, oldest first.
public struct GroupKeySet: Hashable, Sendable, Codable {
    // §11.2.5.1 GroupKeySecurityPolicyEnum
    public enum SecurityPolicy: UInt8, Hashable, Sendable, Codable {
        /// A receiver accepts the first counter it sees from a sender (trust-first, §4.6.5.2).
        case trustFirst = 0
        /// A receiver synchronizes counters with the sender first (§4.6.6 MCSP).
        case cacheAndSync = 1
    }

    /// One epoch key and when it takes effect (microseconds since the Matter epoch, 2000-01-01 UTC).
    public struct EpochKey: Hashable, Sendable, Codable {
        public let key: [UInt8]
        public let startTime: UInt64

        public init(key: [UInt8], startTime: UInt64) {
            self.key = key
            self.startTime = startTime
        }
    }

    public let id: UInt16
    public let policy: SecurityPolicy
    /// One to three, start times strictly increasing.
    public let epochKeys: [EpochKey]

    /// Key set 0 is the fabric's identity protection key (§4.17.2): it is derived at commissioning, never written.
    public static let identityProtectionKeySetID: UInt16 = 0
    /// §4.17.3: a key set holds at most three epoch keys.
    public static let maximumEpochKeys = 3
    /// §4.17.1: an epoch key is 128 bits.
    public static let epochKeyLength = 16

    /// A key set as §11.2.7.1 KeySetWrite allows it: 1 to 3 keys of 16 bytes, start times strictly increasing, the
    /// first not zero.
    public init(id: UInt16, policy: SecurityPolicy, epochKeys: [EpochKey]) throws(GroupKeySetError) {
        guard (1...Self.maximumEpochKeys).contains(epochKeys.count) else { throw .epochKeyCount(epochKeys.count) }
        for (position, epoch) in epochKeys.enumerated() {
            guard epoch.key.count == Self.epochKeyLength else {
                throw .epochKeyLength(position: position, length: epoch.key.count)
            }
        }
        guard epochKeys[0].startTime != 0 else { throw .zeroStartTime }
        for position in epochKeys.indices.dropFirst()
        where epochKeys[position].startTime <= epochKeys[position - 1].startTime {
            throw .startTimesNotIncreasing(position: position)
        }
        self.id = id
        self.policy = policy
        self.epochKeys = epochKeys
    }

    private enum CodingKeys: String, CodingKey {
        case id, policy, epochKeys
    }

    /// A stored key set is checked as a written one is.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: container.decode(UInt16.self, forKey: .id),
            policy: container.decode(SecurityPolicy.self, forKey: .policy),
            epochKeys: container.decode([EpochKey].self, forKey: .epochKeys))
    }

    /// The key a sender uses at `now` (microseconds since the Matter epoch): the newest already in force (§4.17.3).
    /// Without the time (nil) it uses the one connectedhomeip uses: the middle of three, else the first, since a
    /// receiver that holds the set tries every key and the newest may not be in force yet.
    public func currentKey(at now: UInt64?) -> EpochKey {
        guard let now else { return epochKeys.count == 3 ? epochKeys[1] : epochKeys[0] }
        return epochKeys.last { $0.startTime <= now } ?? epochKeys[0]
    }
}

/// Why a key set cannot be taken.
public enum GroupKeySetError: Error, Hashable, Sendable, CustomStringConvertible {
    case epochKeyCount(Int)
    case epochKeyLength(position: Int, length: Int)
    case zeroStartTime
    case startTimesNotIncreasing(position: Int)

    public var description: String {
        switch self {
        case .epochKeyCount(let count): "a group key set holds 1 to 3 epoch keys, not \(count)"
        case .epochKeyLength(let position, let length): "epoch key \(position) is \(length) bytes, not 16"
        case .zeroStartTime: "the first epoch key's start time is 0"
        case .startTimesNotIncreasing(let position): "epoch key \(position) does not start after the one before it"
        }
    }
}
