import Foundation
import HomeRecords

/// Processes as /proc tells them (proc(5)).
extension ProcessIdentity {
    /// This process.
    public static func current() -> ProcessIdentity? {
        running(pid: getpid())
    }

    /// The process now running under `pid`, or nil when there is none (or its stat file cannot be read).
    public static func running(pid: Int32) -> ProcessIdentity? {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        // The command name (field 2) is in parentheses and may itself hold spaces or ')': fields resume after the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name come field 3 (state) onwards, so field 22 is at index 19; a zombie (state Z) has died.
        guard fields.count > 19, fields[0] != "Z", let ticks = UInt64(fields[19]) else { return nil }
        return ProcessIdentity(pid: pid, startTicks: ticks)
    }

    /// Whether this very process (same PID, same start time) still runs.
    public var isRunning: Bool {
        Self.running(pid: pid) == self
    }
}
