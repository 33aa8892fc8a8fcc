import HomeRecords

/// Every timeout of the hub, with the reason it was chosen.
public enum HubTiming {

    /// The max interval ceiling the node interview asks for. The subscription only carries the priming report
    /// and is dropped right after, so the ceiling only has to outlast the interview; a device may pick more.
    static let interviewMaxIntervalCeiling: UInt16 = 60
    /// The max interval ceiling of a live connection's subscription. A minute bounds how long a dead device still
    /// shows online (plus its MRP retransmission time), while a keep-alive per minute per device costs a home
    /// network nothing; connectedhomeip's controllers use the same order of magnitude. Tests and scripts lower it.
    public static let liveMaxIntervalCeiling: UInt16 = 60
    /// How often the live connections' changed caches are stored (one transaction for all), so a restarted hub
    /// primes with data version filters. A cache stored late only costs the clusters changed meanwhile being sent
    /// again (each value is stored with its cluster's version, never ahead of it); ten seconds keeps a busy home's
    /// writes few and a restart's resend small.
    static let attributeCacheSave: Duration = .seconds(10)
    /// How long to browse for a commissionable device: mDNS queries go out at 0, 1 and 2 s, so three seconds
    /// hear every responsive device at least twice.
    static let commissionableBrowse: Duration = .seconds(3)
    /// Resolving the operational record after AddNOC: the device advertises it as soon as it has the NOC.
    static let operationalResolve: Duration = .seconds(5)
    /// A device's network scan: above the 10 s devices state as ScanMaxTimeSeconds (the virtual device's too), with
    /// room for the answer over BTP.
    static let networkScan: Duration = .seconds(20)
    /// A BLE scan ends this much before the discovery step's limit, so the scan's own answer (no device, no proxy)
    /// is what the user reads rather than the step's timeout.
    static let bluetoothScanMargin: Duration = .seconds(1)
    /// Each best-effort undo message after a failure; the fail-safe's expiry covers what does not get through.
    static let rollbackStep: Duration = .seconds(5)
    /// Asking a device to leave the fabric when an add-device session is cancelled or found abandoned: CASE plus two
    /// messages take well under a second on a reachable device; an unreachable one must not hold up the user's next
    /// attempt for long, and MRP gives up on it after about 7 s anyway.
    static let fabricRemoval: Duration = .seconds(10)
    /// A commissioning row older than this belongs to a process that died: the row is written just before AddNOC,
    /// and a live commissioner finishes within the fail-safe armed before it (60 s), so 90 s is beyond any live one.
    /// Such a node is marked failed; `Hub.finishInterruptedCommissionings` then finds whether it holds our NOC.
    static let abandonedCommissioning: Duration = .seconds(90)
    /// How long to try CASE with a node whose commissioning was interrupted: it answers at once when it holds our
    /// fabric and is on the network; a silent one is tried again the next time.
    static let interruptedProbe: Duration = .seconds(3)
    /// While PASE waits out an earlier attempt's fail-safe (up to a minute), a line this often says it is still
    /// waiting: a user watching sees it is not hung.
    static let failSafeWaitProgress: Duration = .seconds(10)
    /// A device still BUSY once that wait is over is a moment slow to end its fail-safe and the PASE session under it
    /// (a loaded machine, a slow device): asked again this often, this many times (10 s more, still bounded), before
    /// the BUSY is the answer.
    static let failSafeGracePause: Duration = .seconds(2)
    static let failSafeGraceTries = 5
}
