// Matter Core §4.3.1 the `CM` TXT key: whether, and how, a node accepts commissioning now.
public enum CommissioningMode: UInt8, Hashable, Sendable {
    /// Not open: the node still advertises (extended discovery) but cannot be commissioned.
    case closed = 0
    /// Basic commissioning window: the passcode of the onboarding payload.
    case basic = 1
    /// Enhanced commissioning window: a passcode an administrator set for this window.
    case enhanced = 2
}
