import HomeRecords
// Matter Core §2.5 Identifiers: the numbers the hub's fabric is built from, each with the reason for its value.
import MatterCertificates

enum HubConstants {
    /// Matter Core §2.5.2: 0xFFF1 is a test vendor ID. We are not a certified vendor, so the hub claims no real one.
    static let adminVendorID: UInt16 = 0xFFF1
    /// Matter Core §2.5.3 and §11.1.5.5: the hub's own node names a product of that test vendor (0x8000 is its
    /// first test product ID) and calls itself what it is.
    static let hubProductID: UInt16 = 0x8000
    static let hubProductName = "swift-home hub"
    /// Matter Core §2.5.5.1: operational node IDs; everything above is reserved for groups, temporary and PAKE IDs.
    static let operationalNodeIDs = CertificateLimits.operationalNodeIDs
    /// Matter Core §2.5.1: fabric ID 0 is reserved (no fabric); every other value may be used.
    static let fabricIDs: ClosedRange<UInt64> = 0x0000_0000_0000_0001...0xFFFF_FFFF_FFFF_FFFF
    /// Matter Core §6.5.6.1 matter-rcac-id and matter-icac-id: the hub has one root and at most one intermediate,
    /// so the IDs only need to differ from each other.
    static let rootCAID: UInt64 = 1
    static let intermediateCAID: UInt64 = 2
    /// Matter Core §4.15.3: group epoch keys, the IPK's among them, are 128 bits.
    static let epochKeyLength = 16
    /// Matter Core §6.5.6.2: notAfter 0 means "no well-defined expiration"; the hub's certificates live as long as
    /// its fabric, and devices without a clock cannot renew them on time anyway.
    static let certificateNotAfter: UInt32 = 0
    /// Random node IDs collide with probability ~n/2^64; a run of this many collisions means a broken random source.
    static let nodeIDAllocationAttempts = 16
    /// Seconds from the Unix epoch to the Matter epoch, 2000-01-01T00:00:00Z (Matter Core §3.5.2).
    static let matterEpochOffset: Int64 = 946_684_800
    /// §11.10.7.2: the fail-safe armed for commissioning; the spec's recommended 60 s covers every step after it.
    static let failSafeSeconds: UInt16 = 60
    /// §11.10.7.3: "XX" is the ISO 3166 code for "unknown country", what a commissioner sends when it does not know.
    static let regulatoryCountryCode = "XX"
    /// Reading the whole home is retried when another writer changed the store meanwhile; past this many tries the
    /// store is changing faster than it can be read, and the read fails (retrying later may succeed).
    static let consistentReadAttempts = 8
    /// Batches of changes a home model listener may have waiting before the oldest are dropped and it is told it fell
    /// behind: a consumer this far behind re-reads the model instead, which costs less than catching up.
    static let modelListenerBacklog = 256
    /// Commissionings of one hub at once. Each is mostly waiting on its device (PBKDF2 and signatures on small
    /// devices take seconds), so several overlap well; 8 keep a 2-core hub's own share (SPAKE2+, attestation, NOC
    /// signing) under a second per device while a box of devices is added, and each holds a transport and a
    /// fail-safe on its device only while it runs.
    static let concurrentCommissionings = 8
    /// CASE attempts of live connections in flight at once. A full CASE costs each side a few P-256 operations
    /// (about 2 ms on a small machine): 32 at once keep the cores busy when a home of 1,000 nodes starts, while a
    /// node's attempt never waits behind hundreds of others, and a silent node holds its place only until MRP gives
    /// up on it. python-matter-server sets up 5 nodes at a time, and one that hangs stalls the rest.
    static let sessionEstablishmentsInFlight = 32
    /// Events the home model keeps per followed node for consumers that fell behind: a switch pressed and released
    /// many times in a second stays within it, and it costs a few KiB per node.
    static let recentEventsPerNode = 64
    /// The largest firmware image the hub takes and serves (issue #38): images are read whole to be checked and served
    /// from memory, and the largest Matter devices' images (Wi-Fi modules with a display) are a few MiB; 64 MiB is
    /// far past them and still a bounded read.
    static let otaImageMaxBytes = 64 << 20
    /// Firmware transfers the hub serves at once. Each costs a block of up to 1 KiB per round trip and its image in
    /// memory; two keep a 2-core hub's other nodes answered promptly (the complaint against other Matter servers is a
    /// busy OTA provider starving the rest), and a third device is told Busy and asks again later.
    static let otaTransfersAtOnce = 2
    /// How long a device told Busy waits before it asks again (QueryImageResponse's DelayedActionTime, Matter Core §11.21.6.5.2:
    /// the requestor waits at least this long); a 1 MiB transfer takes a few seconds on a home network.
    static let otaBusyRetrySeconds: UInt32 = 120
    /// How long an offered image keeps its node's transfer place before the node starts downloading: a requestor
    /// opens its BDX exchange within a second of the QueryImageResponse; one that has not within a minute is not
    /// coming, and its place goes to the next device.
    static let otaOfferLifetime: Duration = .seconds(60)
    /// The update token's length (§11.21.6.5.2 UpdateToken: at least 8 bytes, at most 32); 16 random bytes are never
    /// guessed or repeated.
    static let otaUpdateTokenLength = 16
}
