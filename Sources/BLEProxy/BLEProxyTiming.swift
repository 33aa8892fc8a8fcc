// Every limit and timing of the BLE proxy protocol's two ends, each with its reason.
public enum BLEProxyTiming {
    /// A client that has not said hello this long after connecting is closed (docs/ble-proxy-protocol.md,
    /// "Handshake": 10 seconds).
    public static let handshake = Duration.seconds(10)
    /// The hub pings every client this often, answered or not.
    public static let ping = Duration.seconds(15)
    /// A client the hub has heard nothing from (no pong, no frame) for more than this is dropped, at the first ping
    /// past it: a proxy whose host vanished (a Home Assistant restarted, a Wi-Fi drop) must not keep owning the
    /// peripherals it saw, but one on a slow link whose pongs come late is kept. Three pings unanswered (the 45 s
    /// issue #52 asks for; matterjs-server's protocol text sets no liveness rule of its own).
    public static let silence = Duration.seconds(45)
    /// `silence` in beats: the pings a client may leave unanswered.
    static let unansweredPings = 3
    /// Peripherals a central keeps at once (what the proxies reported, by address); past it the one heard of longest
    /// ago is forgotten. A device advertises only while its commissioning window is open, so a home has a handful at
    /// once; proxies also report rotating addresses and whatever a neighbour's devices send, which must not grow the
    /// hub's memory.
    public static let peripherals = 256
    /// A command the client has not answered in this long fails: above the slowest operation a proxy carries out (a
    /// connection, up to 30 s; service discovery on a remote ESPHome proxy, several seconds), as matterjs-server's.
    public static let command = Duration.seconds(60)
    /// What the hub gives a proxy to connect to a peripheral: the protocol's default.
    public static let connect = Duration.seconds(30)
    /// How soon a virtual peripheral tries the hub's `/ble` again after it could not connect or lost the
    /// connection: soon enough for a demo that starts the hub after the device, rare enough to cost nothing.
    public static let redial = Duration.seconds(2)
    /// The ATT MTU a virtual peripheral reports: the largest one LE data length extension carries in one packet.
    public static let virtualPeripheralMTU = 247
}
