import HubWire

/// Every timing of the hub engine, with the reason for its value.
enum HubEngineTiming {
    /// How long a new subscription waits for the device's first report before emitting what is known: a device on the
    /// local network answers within a second; one that cannot be found is shown (as not online) rather than waited for.
    static let firstContact: Duration = .seconds(2)
    /// A device told of an update asks for it within seconds (it opens CASE to the hub and queries); one that has not
    /// within this long never will, and `home update` says so rather than wait.
    static let updateQuery: Duration = .seconds(60)
    /// A whole update: a 1 MiB image downloads in seconds on a home network and tens of seconds over Thread, and the
    /// device then reboots and reports its new version; past this it is an error that names where it stopped.
    static let updateLimit: Duration = .seconds(900)
    /// From the device's NotifyUpdateApplied to its report of the new version: the hub subscribes to it again at
    /// once, so a second or two; a minute covers a slow device's boot.
    static let updateConfirmation: Duration = .seconds(60)
    /// How long an add-device session holds the home. A person scans a code, waits for commissioning (a minute on a
    /// slow device) and names the device; ten minutes covers that with room to spare, yet a session its owner forgot
    /// frees the home soon.
    static let commissioningSession: Duration = .seconds(600)
    /// How long a client waits for the hub's welcome once connected: a live hub answers in milliseconds (its snapshot
    /// of a thousand nodes in well under a second); one that holds its socket without answering (stopped in a debugger,
    /// hung) is given up on.
    static let hubWelcome: Duration = .seconds(5)
    /// How often `HubConnection.connect` looks again for a hub that holds the home's lock but has not bound its socket
    /// yet (it is starting: opening its store takes milliseconds), and how long between looks: half a second in all.
    static let hubStartAttempts = 10
    static let hubStartRetry: Duration = .milliseconds(50)
    /// How long a room command waits for its members' subscriptions to report the change: a device on the local
    /// network reports within its min interval of a second or less; one that says nothing in three has not acted.
    static let groupConfirmation: Duration = .seconds(3)
    /// How long the topology's refresh reads the nodes' network diagnostics: a node on the local network answers a
    /// read in milliseconds, one over Thread in a second or two; a graph asked for by a person is not held longer.
    static let diagnosticsRefresh: Duration = .seconds(10)
}

/// Every limit of the hub engine, with the reason for its value.
enum HubEngineLimits {
    /// Names of devices, rooms and structures, in Unicode code points: the limit the Home APIs this one follows set,
    /// and short enough for any screen. Longer names are cut to it, not refused.
    static let nameCodePoints = 60
    /// Nodes read at once by the topology's refresh: a Thread mesh carries few messages at a time, and a border
    /// router queues what it cannot send.
    static let diagnosticsReads = 4
}
