// Matter Core §6.6 Access Control: who asks (the subject descriptor of the session the
// request arrived on), checked against the access control list before every read, write and invoke.
public struct AccessContext: Hashable, Sendable {
    // Matter Core §9.10.5 AccessControlEntryAuthModeEnum
    public enum AuthMode: UInt8, Hashable, Sendable {
        case pase = 1
        case `case` = 2
        case group = 3
    }

    /// The accessing fabric; 0 on a PASE session before AddNOC gave it one.
    public var fabricIndex: UInt8
    /// The peer's operational node ID over CASE, its group ID for a group message, or for PASE the PAKE key
    /// identifier (`paseSubject`).
    public var subject: UInt64
    public var authMode: AuthMode
    /// True while a commissioning window's PASE session is in use: it is granted Administer implicitly (§6.6).
    public var isCommissioning: Bool

    public init(fabricIndex: UInt8, subject: UInt64, authMode: AuthMode, isCommissioning: Bool = false) {
        self.fabricIndex = fabricIndex
        self.subject = subject
        self.authMode = authMode
        self.isCommissioning = isCommissioning
    }

    /// The PAKE key identifier of passcode ID 0 (Matter Core's node ID ranges): a PASE session's subject.
    public static let paseSubject: UInt64 = 0xFFFF_FFFB_0000_0000
}
