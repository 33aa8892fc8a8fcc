// Every timing of DNS-SD discovery, with its reason.
public enum DiscoveryTiming {
    /// RFC 6762 §5.2: the interval between the first two queries must be at least one second.
    public static let firstRequeryInterval: Duration = .seconds(1)
    /// RFC 6762 §5.2: successive query intervals must at least double.
    public static let requeryBackoffFactor = 2
    /// RFC 6762 §5.2: once the interval reaches sixty minutes it may stop growing.
    public static let maximumRequeryInterval: Duration = .seconds(3600)
}
