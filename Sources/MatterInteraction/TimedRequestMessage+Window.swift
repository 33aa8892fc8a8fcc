extension TimedRequestMessage {
    /// A TimedRequest holding the action window open for `duration`, clamped to what the field holds (1…65535 ms).
    init(window duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let milliseconds = min(seconds, Int64(UInt16.max)) * 1000 + attoseconds / 1_000_000_000_000_000
        self.init(timeout: UInt16(clamping: max(1, milliseconds)))
    }
}
