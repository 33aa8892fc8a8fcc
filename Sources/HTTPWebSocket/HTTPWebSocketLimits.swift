/// Every limit of the HTTP/1.1 and WebSocket layer, with why it was chosen. The Matter-server API listens on
/// loopback by default, but a `--listen` on the network takes connections from anyone before the token is checked,
/// so each limit bounds what a stranger can make the hub hold.
public enum HTTPWebSocketLimits {
    /// A request head (request line and headers) larger than this is refused with 431. The clients that speak this
    /// API (python-matter-server's, Home Assistant's aiohttp) send under 1 KiB; aiohttp itself caps a line at 8 KiB.
    public static let requestHeadBytes = 16 * 1024
    /// More header fields than this is refused with 431: a handshake needs seven or eight.
    public static let headerFields = 64
    /// An incoming WebSocket message (all its fragments) larger than this closes the connection with 1009. The
    /// largest command a client sends is `import_test_node` with a node dump: a large bridge's runs to a few MB.
    public static let messageBytes = 8 * 1024 * 1024
    /// RFC 6455 §5.5: a control frame's payload is at most 125 bytes and is never fragmented.
    public static let controlPayloadBytes = 125
    /// How much of an unknown path a 404 repeats: enough to recognise it, not a stranger's megabyte echoed back.
    public static let pathShownInErrors = 64
    /// How long a connection may take to send its whole request head, from the moment it is accepted. Every client of
    /// this listener sends its head in its first packet (aiohttp, python-matter-server's client, a browser); 10 s
    /// leaves a phone on poor Wi-Fi to spare, and a connection that sends nothing gives its place back soon.
    public static let requestHeadTime: Duration = .seconds(10)
    /// Connections from one peer (an IPv4 address, or an IPv6 /64: one host's addresses) still sending their head. A
    /// browser opens at most 6 at once to a host, Home Assistant one or two; more from one peer is someone holding
    /// places, and is refused at once with 503 so that it cannot crowd out other peers.
    public static let headsWaitingPerPeer = 16
    /// Connections from all peers still sending their head: a bound on the descriptors strangers can hold (the hub
    /// has 20,000 for its devices and clients), far above what a home's clients open at once.
    public static let headsWaitingInAll = 256
}
