/// Every timing of the Home API, with the reason for its value.
enum HomeTiming {
    /// How often `Home.connect` looks again for a hub that holds the home's lock but has not bound its socket yet (it
    /// is starting: opening its store takes milliseconds), and how long between looks: half a second in all.
    static let hubStartAttempts = 10
    static let hubStartRetry: Duration = .milliseconds(50)
}

/// Every limit of the Home API, with the reason for its value.
enum HomeLimits {
    /// An app group ID becomes one directory name; 255 bytes is the longest file name Linux file systems take.
    static let appGroupIDLength = 255
}
