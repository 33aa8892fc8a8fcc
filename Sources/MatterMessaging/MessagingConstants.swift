/// The fixed numbers of the message layer, each with the reason it has its value.
public enum MessagingConstants {
    /// Matter Core §4.4.1.1: version 0 is the only message format defined so far.
    public static let headerVersion: UInt8 = 0

    /// Matter Core §4.5.4: MSG_COUNTER_WINDOW_SIZE, how many counters behind the maximum are still tracked,
    /// so that messages reordered in flight are accepted once instead of dropped.
    public static let messageCounterWindowSize: UInt32 = 32

    /// Matter Core §4.5.1.2: counters start at Crypto_DRBG(len = 28) + 1, so the lowest start is 1 ...
    public static let counterInitialLowerBound: UInt32 = 1
    /// ... and the highest is 2^28, which leaves about 2^32 − 2^28 messages before a session counter runs out.
    public static let counterInitialUpperBound: UInt32 = 1 << 28

    /// Matter Core §4.8.1: the nonce is security flags (1) ‖ message counter (4) ‖ source node ID (8).
    public static let nonceLength = 13

    /// Matter Core §3.6 / §4.8: AES-CCM with a 128-bit MIC appended to every secured message.
    public static let micLength = 16

    /// Matter Core §4.4.4: the largest message sent over UDP, headers and MIC included: the IPv6 minimum MTU (1280)
    /// less the IPv6 and UDP headers (48), so a message never needs IP fragmentation, which Thread border routers
    /// and many paths do not carry. connectedhomeip caps what follows the message header at 1200 bytes on every
    /// transport, so its largest messages fit as well.
    public static let maximumUDPMessageSize = 1232

    /// Matter Core kUndefinedNodeId (node ID 0): what a PASE session puts in the nonce, having no operational node ID.
    public static let undefinedNodeID: UInt64 = 0

    /// Matter Core §4.4.1.2: session ID 0 on a unicast session is the unsecured session.
    public static let unsecuredSessionID: UInt16 = 0

    /// Matter Core §2.5.5 Operational Node ID range (0x0000_0000_0000_0001 ... 0xFFFF_FFEF_FFFF_FFFF), from which
    /// §4.13.2.1 draws the ephemeral initiator node IDs of unsecured sessions, so they never look like
    /// group, temporary local or PAKE key IDs.
    public static let operationalNodeIDRange: ClosedRange<UInt64> = 0x0000_0000_0000_0001...0xFFFF_FFEF_FFFF_FFFF

    /// Where the reception window of a new session starts (connectedhomeip's kInitialSyncValue). Counters start
    /// at 1 or above (§4.5.1.2), so the peer's first messages are accepted in any order; starting at the first
    /// arrival instead would count every earlier counter as seen, and a response overtaken by a later standalone
    /// acknowledgement would be acknowledged yet never delivered.
    public static let initialPeerMessageCounter: UInt32 = 0
}
