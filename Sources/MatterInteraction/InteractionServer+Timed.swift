import MatterMessaging

// Matter Core §10.7.8 TimedRequestMessage, timed interactions: a TimedRequest opens a window on its exchange; the write or invoke that
// follows on it must say TimedRequest=true and arrive inside the window.
extension InteractionServer {
    /// The status that refuses the whole action, or nil when its timing is in order: TIMED_REQUEST_MISMATCH
    /// when the flag and the presence of a TimedRequest disagree, TIMEOUT when the window closed.
    static func timedStatus(flagged: Bool, window: Instant?, now: Instant) -> InteractionModelStatus? {
        switch (window, flagged) {
        case (nil, false): nil
        case (nil, true), (.some, false): .timedRequestMismatch
        case (let until?, true): now > until ? .timeout : nil
        }
    }
}
