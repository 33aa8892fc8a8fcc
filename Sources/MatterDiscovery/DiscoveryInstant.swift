/// A point in the discovery machine's time, measured from an origin the caller picks (a virtual
/// clock in tests, the start of a browse on the wire), so the machine never reads a real clock.
public struct DiscoveryInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var sinceOrigin: Duration

    public init(sinceOrigin: Duration) {
        self.sinceOrigin = sinceOrigin
    }

    public static let origin = DiscoveryInstant(sinceOrigin: .zero)

    public static func < (lhs: DiscoveryInstant, rhs: DiscoveryInstant) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }

    public static func + (instant: DiscoveryInstant, duration: Duration) -> DiscoveryInstant {
        DiscoveryInstant(sinceOrigin: instant.sinceOrigin + duration)
    }

    public var description: String { "origin+\(sinceOrigin)" }
}
