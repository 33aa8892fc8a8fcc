import MatterTime

// Matter Core §4.19 Bluetooth Transport Protocol: every limit and timing of BTP, each with the reason it has its value.
/// The fixed numbers of BTP.
public enum BTPConstants {
    /// The one BTP version there is (§4.19.4.2): a request that does not offer it is refused.
    public static let version: UInt8 = 4
    /// A GATT characteristic value is the ATT MTU less its 3-byte ATT header.
    public static let attHeaderSize = 3
    /// The smallest ATT MTU every BLE link has (23) less its header: the segment size when the MTU is not known.
    public static let minimumSegmentSize = 20
    /// The largest segment either side uses: an ATT MTU of 247 (the largest one LE data length extension carries in
    /// one link-layer packet) less its header. connectedhomeip's devices offer 128 at most; matter.js 244.
    public static let maximumSegmentSize = 244
    /// The receive window this side offers, in packets: connectedhomeip's BLE_MAX_RECEIVE_WINDOW_SIZE, the most a
    /// device of theirs accepts. A window below 3 leaves no room for data beside the acknowledgements.
    public static let receiveWindow: UInt8 = 6
    /// A side sends no more data when its peer's window is down to this many packets and it has no acknowledgement to
    /// carry: the last slot is kept for a packet that frees the peer's window (connectedhomeip's
    /// BTP_WINDOW_NO_ACK_SEND_THRESHOLD).
    public static let windowKeptForAcknowledgements: UInt8 = 1
    /// A side acknowledges at once, without waiting for data to carry the acknowledgement, when its own receive
    /// window is down to this many packets: its peer would otherwise stall (BLE_CONFIG_IMMEDIATE_ACK_WINDOW_THRESHOLD).
    public static let immediateAcknowledgementWindow: UInt8 = 1

    /// BTP_CONN_RSP_TIMEOUT (§4.19.4.8): the central waits this long for the handshake response after writing its
    /// request, then gives up on the connection.
    public static let handshakeTimeout = Duration.seconds(5)
    /// BTP_ACK_TIMEOUT (§4.19.4.8): a side that sent a packet and has had no acknowledgement of it for this long
    /// closes the connection: its peer is gone.
    public static let acknowledgementTimeout = Duration.seconds(15)
    /// How long a received packet waits for data to carry its acknowledgement before a standalone one goes out: a
    /// sixth of BTP_ACK_TIMEOUT (connectedhomeip's 2.5 s), far within the peer's patience.
    public static let standaloneAcknowledgementDelay = Duration.milliseconds(2500)
    /// BTP_CONN_IDLE_TIMEOUT (§4.19.4.8): the central closes a connection it has sent no data on for this long.
    public static let idleTimeout = Duration.seconds(30)
}
