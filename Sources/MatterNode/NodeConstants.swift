// Every limit and timing of a Matter node (the hub, a virtual device, each device of a farm), each with its reason.
public enum NodeConstants {
    /// Matter Core §11.18.5.2 SupportedFabrics: at least 5; a virtual device has no reason to offer more.
    public static let supportedFabrics: UInt8 = 5
    /// Matter Core §11.18.5.3: fabric indices 1 to 254 (0 means "no fabric", 255 is reserved).
    public static let fabricIndices: ClosedRange<UInt8> = 1...254
    /// Matter Core §11.10.5.2 BasicCommissioningInfo: the fail-safe a commissioner should ask for, and the longest
    /// it may keep one armed in total (the spec's minimum and a 15-minute cap, as connectedhomeip uses).
    public static let failSafeExpiryLengthSeconds: UInt16 = 60
    public static let maxCumulativeFailsafeSeconds: UInt16 = 900
    /// Matter Core §9.10.5: the smallest ACL capacities a device may declare.
    public static let subjectsPerAccessControlEntry: UInt16 = 4
    public static let targetsPerAccessControlEntry: UInt16 = 3
    public static let accessControlEntriesPerFabric: UInt16 = 4
    /// Matter Core §11.19.8.1 OpenCommissioningWindow: the window lasts 3 to 15 minutes.
    public static let commissioningTimeoutSeconds: ClosedRange<UInt16> = 180...900
    /// Matter Core §3.9 and §5.1.1.6: PBKDF2 iterations and salt length a verifier may use.
    public static let pbkdfIterations: ClosedRange<UInt32> = 1_000...100_000
    public static let pbkdfSaltLength: ClosedRange<Int> = 16...32
    /// Matter Core §11.19.8.1: a verifier is w0 (32 octets) ‖ L (65 octets).
    public static let verifierLength = 97
    /// Matter Core §7.1.1 DataModelRevision and §11.1.5.22 SpecificationVersion of Matter 1.3, what the generated
    /// clusters follow.
    public static let dataModelRevision: UInt16 = 17
    public static let specificationVersion: UInt32 = 0x0103_0000
    /// How deep the signals clusters raise on hearing a signal are handed on (`EndpointSignal`): no chain among the
    /// clusters served is longer than two (the fail-safe's end, Network Commissioning's revert, its diagnostics).
    static let endpointSignalRounds = 3
    /// Matter Core §11.1.5.21 CapabilityMinima: the minimum every node supports.
    public static let caseSessionsPerFabric: UInt16 = 3
    /// CASE sessions a node keeps a fabric (at least `caseSessionsPerFabric`): a hub, a phone and a few controllers of
    /// one fabric fit, and a peer that opens sessions without end evicts only its own fabric's least recently used
    /// (Matter Core §4.13.2.1) instead of growing the node's memory.
    public static let acceptedCASESessionsPerFabric = 8
    public static let subscriptionsPerFabric: UInt16 = 3
    /// Matter Core §11.17.5: the attestation nonce and CSR nonce are 32 octets.
    public static let nonceLength = 32
    /// Matter Core §11.2.6.3 MaxGroupsPerFabric: the groups (GroupTable and GroupKeyMap entries) a fabric may have on
    /// the node. A hub makes each room a group and lets people make a few more; 16 holds a device's room and named
    /// groups with room to spare, where connectedhomeip's examples hold 4 to 12.
    public static let maxGroupsPerFabric: UInt16 = 16
    /// Matter Core §11.2.6.4 MaxGroupKeysPerFabric: key sets per fabric, the IPK (key set 0) included. One key set
    /// serves every group of a home, and three more let an administrator rotate or split keys.
    public static let maxGroupKeysPerFabric: UInt16 = 4
    /// Senders per fabric whose group message counters a node tracks (trust-first, in memory, as connectedhomeip's
    /// CHIP_CONFIG_MAX_GROUP_DATA_PEERS): a message from one more is dropped, never one already tracked forgotten,
    /// which would let its old messages be replayed.
    public static let groupPeersPerFabric = 15
    /// Matter Application Clusters §1.3.7.1: a group name is at most 16 bytes.
    public static let groupNameMaximumLength = 16
    /// Matter Core §7.14.2: events live in a bounded buffer and the oldest go first; a few hundred cover what a
    /// subscriber catching up after a short absence needs, without the log of a long-running device growing forever.
    public static let eventBufferSize = 256
    /// Endpoint IDs: 0xFFFF is no endpoint (a wildcard in paths), so a bridge's new bridged devices take IDs up to
    /// 0xFFFE. Matter Core §9.2.1 lets IDs wrap around past it; a virtual bridge that added 65,000 devices is a bug
    /// worth stopping at, so it refuses more instead.
    public static let endpointIDs: ClosedRange<UInt16> = 0...0xFFFE
}

/// How long a node waits, each with its reason.
public enum NodeTiming {
    /// How long an exchange the device takes part in may stay silent: longer than the Interaction Model engine's own
    /// response timeout (30 s), so the engine decides first.
    public static let exchangeIdle: Duration = .seconds(45)
    /// How long one PASE or CASE step may wait for the peer: a slow commissioner computes PBKDF2 before Pake1.
    public static let establishmentStep: Duration = .seconds(60)
    /// How long the unsecured session of a finished PASE or CASE stays, on either side: its last message is
    /// retransmitted until acknowledged, and the peer's retransmissions of its own are acknowledged.
    public static let unsecuredSessionLinger: Duration = .seconds(10)
    /// How long a value that changes often waits to be written (`NodeEffect.persistSoon`), as connectedhomeip defers
    /// such attributes: a burst of changes (a dimmer moving, a room switched) costs one write, and reports never wait
    /// on the disk; a crash loses at most this much of the latest values, never a fabric or an access change.
    public static let deferredPersistence: Duration = .milliseconds(500)

    /// Waiting for the peer's next Interaction Model message (a report chunk, an invoke response). MRP already
    /// retransmits lost messages; 30 s covers a device's work on a slow command (AddNOC and CSRRequest make
    /// interpreted devices sign and verify with P-256), as connectedhomeip's commissioning steps allow.
    public static let interactionResponse: Duration = .seconds(30)

    /// The action window of the TimedRequest sent before a command that must be timed (Matter Core §8.7). The
    /// InvokeRequest follows at once; 10 s outlasts its MRP retransmissions to a slow device, yet stays short, as the
    /// window exists so that a delayed invoke replayed later is refused.
    public static let timedInvokeWindow: Duration = .seconds(10)

    /// Waiting for the peer's next PASE or CASE message. MRP already retransmits lost messages; this covers
    /// the peer's own work, which on small or interpreted devices (CircuitMatter's pure-Python SPAKE2+ and
    /// ECDSA) takes seconds, not milliseconds.
    public static let sessionEstablishmentStep: Duration = .seconds(30)
}
