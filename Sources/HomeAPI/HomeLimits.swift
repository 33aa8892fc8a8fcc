/// Every limit of the Home API, with the reason for its value.
enum HomeLimits {
    /// Names of devices, rooms and structures, in Unicode code points: the limit the Home APIs this one follows set,
    /// and short enough for any screen. Longer names are cut to it, not refused.
    static let nameCodePoints = 60
    /// An app group ID becomes one directory name; 255 bytes is the longest file name Linux file systems take.
    static let appGroupIDLength = 255
}
