// Every timing of DNS-SD discovery, with its reason.
public enum DiscoveryTiming {
    /// RFC 6762 §5.2: the interval between the first two queries must be at least one second.
    public static let firstRequeryInterval: Duration = .seconds(1)
    /// RFC 6762 §5.2: successive query intervals must at least double.
    public static let requeryBackoffFactor = 2
    /// RFC 6762 §5.2: once the interval reaches sixty minutes it may stop growing.
    public static let maximumRequeryInterval: Duration = .seconds(3600)

    /// A browse for a discriminator ends this long after the first matching device is resolved, instead of at the
    /// caller's timeout: responders answer one query after a random 20–120 ms (RFC 6762 §6), so every device that
    /// answered the same query is heard by then, and commissioning starts seconds sooner.
    public static let matchSettle: Duration = .milliseconds(250)

    // The responder side.

    /// RFC 6762 §10: records naming a host (A, AAAA, SRV) live 120 s, as host data may change sooner.
    public static let hostRecordTTL: UInt32 = 120
    /// RFC 6762 §10: every other record (PTR, TXT) lives 75 minutes.
    public static let otherRecordTTL: UInt32 = 4500
    /// RFC 6762 §6.7: a legacy unicast answer carries a TTL of at most 10 s.
    public static let legacyUnicastMaximumTTL: UInt32 = 10
    /// RFC 6762 §6: a record is multicast at most once a second on a link.
    public static let minimumMulticastInterval: Duration = .seconds(1)
    /// RFC 6762 §8.3: announce at least twice, one second apart, each gap at least double the one before;
    /// these are the gaps after the first announcement (three announcements: 0 s, 1 s, 3 s).
    public static let announcementGaps: [Duration] = [.seconds(1), .seconds(2)]
}
