/// How much a serving hub says on standard error: set when it starts (`home serve --log-level`) and while it runs
/// (the Matter-server API's `set_loglevel`).
public enum HubLogLevel: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Failures only.
    case error
    /// Also each node's state changes (the default).
    case info
    /// Also each client and request on the socket.
    case debug

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
