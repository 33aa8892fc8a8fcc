/// Names one session inside one `ExchangeManager`; handles are never reused by that manager.
public struct SessionHandle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static func < (lhs: SessionHandle, rhs: SessionHandle) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "session \(rawValue)" }
}
