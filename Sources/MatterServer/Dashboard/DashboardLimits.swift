import Foundation

/// Every limit and timing of the dashboard's server side, with the reason it was chosen. (The page's own, a reconnect's
/// delay and the like, are at the top of `Assets/app.js`; the request head's and a WebSocket's are the listener's,
/// `HTTPWebSocketLimits` and `WaitingHeads`.)
enum DashboardLimits {
    /// A session lasts a month from its sign-in: a phone on the wall stays signed in; a lost one does not for ever.
    static let sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// Sessions kept at once; a new one past it ends the oldest (a household has a few browsers; a flood of sign-ins
    /// by someone holding the token cannot grow the hub's memory).
    static let sessions = 64
    /// Actions of one page at work at once: a person clicks a few; a page (or a script in its place) sending more
    /// without waiting is told so, and cannot grow the hub's tasks without end.
    static let actionsAtOnce = 32
    /// The sign-in form's body: the token and its name.
    static let signInBody = 1024
    // Wrong tokens at the sign-in are counted with the API's: `WrongTokens`.
    /// A share's commissioning window: long enough to fetch another phone and scan, short enough that a code
    /// photographed over a shoulder is soon useless (the Home API's own share takes the same).
    static let shareSeconds: UInt16 = 900
}
