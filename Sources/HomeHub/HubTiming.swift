/// Every timeout of the hub, with the reason it was chosen.
enum HubTiming {
    /// Waiting for the peer's next PASE or CASE message. MRP already retransmits lost messages; this covers
    /// the peer's own work, which on small or interpreted devices (CircuitMatter's pure-Python SPAKE2+ and
    /// ECDSA) takes seconds, not milliseconds.
    static let sessionEstablishmentStep: Duration = .seconds(30)
}
