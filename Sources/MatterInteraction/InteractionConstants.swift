/// Protocol constants and limits of the interaction layer, each with its reason.
public enum InteractionConstants {
    /// The InteractionModelRevision (tag 0xFF) we send: 12, as connectedhomeip and Apple's controllers send
    /// (Matter 1.4). Peers send other values (CircuitMatter 11, matter.js tests 1, some none) and all are accepted.
    public static let interactionModelRevision: UInt8 = 12

    /// The context tag of InteractionModelRevision: the last one, so that it never collides with a message's fields.
    static let revisionTag: UInt8 = 0xFF

    /// Chunks one report may span before we give up on it. A whole-device priming report of a large bridge
    /// runs to a few hundred chunks of ~1 KB; 1024 bounds what a peer that never stops chunking can make us hold.
    public static let maximumReportChunks = 1024

    /// Largest TLV payload the server puts in one ReportData or InvokeResponse before chunking. A datagram fits
    /// the IPv6 minimum MTU (1280) less IPv6 and UDP headers (48): 1232 bytes, from which the message and
    /// protocol headers and the MIC take up to about 60; 1024 keeps a margin for what a peer's headers add.
    public static let maximumServerPayload = 1024

    /// Subscriptions the server holds at once, across fabrics. The spec asks for at least 3 per fabric and a
    /// home device serves a handful of fabrics; 24 bounds what subscribers can make one device hold.
    public static let maximumServedSubscriptions = 24
}
