// Every limit and timing of the BLE proxy protocol's two ends, each with its reason.
public enum BLEProxyTiming {
    /// A client that has not said hello this long after connecting is closed (docs/ble-proxy-protocol.md,
    /// "Handshake": 10 seconds).
    public static let handshake = Duration.seconds(10)
    /// The hub pings every client this often, and drops one it has heard nothing from since the last ping: a proxy
    /// whose host vanished (a Home Assistant restarted, a Wi-Fi drop) must not keep owning the peripherals it saw.
    public static let ping = Duration.seconds(15)
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
