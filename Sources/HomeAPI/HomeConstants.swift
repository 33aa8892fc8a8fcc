/// Every limit of the Home API, with the reason for its value.
enum HomeLimits {
    /// An app group ID becomes one directory name; 255 bytes is the longest file name Linux file systems take.
    static let appGroupIDLength = 255
}
