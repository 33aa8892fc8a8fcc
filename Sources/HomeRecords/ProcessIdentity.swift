import Foundation

/// A running process, told apart from a later one that reuses its PID by its start time (field 22 of
/// `/proc/<pid>/stat`, in clock ticks since boot; proc(5)).
public struct ProcessIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    public let pid: Int32
    public let startTicks: UInt64

    public init(pid: Int32, startTicks: UInt64) {
        self.pid = pid
        self.startTicks = startTicks
    }

    public var description: String { "process \(pid)" }
}
