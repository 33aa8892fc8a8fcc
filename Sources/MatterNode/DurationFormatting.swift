extension Duration {
    /// "30 s", "1.5 s", "200 ms": how durations appear in error messages.
    public var spoken: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
