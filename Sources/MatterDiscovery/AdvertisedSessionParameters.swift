// Matter Core §4.3.4 Common TXT Key/Value Pairs: what a node tells peers about reaching it.
public struct AdvertisedSessionParameters: Hashable, Sendable {
    /// `SII`: how long the node may sleep between checks while idle (at most one hour).
    public var sessionIdleInterval: Duration?
    /// `SAI`: how long the node may sleep between checks while active (at most one hour).
    public var sessionActiveInterval: Duration?
    /// `SAT`: how long the node stays active after network activity (at most 65535 ms).
    public var sessionActiveThreshold: Duration?
    /// `T`: TCP support bitmap (bit 1 TCP client, bit 2 TCP server).
    public var tcpSupport: UInt8?
    /// `ICD`: whether the node is a long idle time intermittently connected device.
    public var isLongIdleTimeICD: Bool?

    public init(
        sessionIdleInterval: Duration? = nil, sessionActiveInterval: Duration? = nil,
        sessionActiveThreshold: Duration? = nil,
        tcpSupport: UInt8? = nil, isLongIdleTimeICD: Bool? = nil
    ) {
        self.sessionIdleInterval = sessionIdleInterval
        self.sessionActiveInterval = sessionActiveInterval
        self.sessionActiveThreshold = sessionActiveThreshold
        self.tcpSupport = tcpSupport
        self.isLongIdleTimeICD = isLongIdleTimeICD
    }

    /// The TXT entries for the parameters given, in milliseconds; a value beyond its key's limit throws.
    func txtEntries() throws(AdvertisementError) -> [TXTEntry] {
        var entries: [TXTEntry] = []
        func milliseconds(_ key: String, _ duration: Duration?, maximum: Int64) throws(AdvertisementError) {
            guard let duration else { return }
            let (seconds, attoseconds) = duration.components
            let value = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            guard duration >= .zero, value <= maximum else {
                throw .intervalOutOfRange(key: key, duration, maximumMilliseconds: maximum)
            }
            entries.append(TXTEntry(key: key, value: String(value)))
        }
        try milliseconds("SII", sessionIdleInterval, maximum: DiscoveryLimits.maximumSessionIntervalMilliseconds)
        try milliseconds("SAI", sessionActiveInterval, maximum: DiscoveryLimits.maximumSessionIntervalMilliseconds)
        try milliseconds(
            "SAT", sessionActiveThreshold, maximum: DiscoveryLimits.maximumSessionActiveThresholdMilliseconds)
        if let tcpSupport { entries.append(TXTEntry(key: "T", value: String(tcpSupport))) }
        if let isLongIdleTimeICD { entries.append(TXTEntry(key: "ICD", value: isLongIdleTimeICD ? "1" : "0")) }
        return entries
    }
}
