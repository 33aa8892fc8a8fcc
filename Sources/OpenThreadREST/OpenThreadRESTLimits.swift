/// Every limit and timing of a collection from a border router's REST API, with the reason it was chosen.
public enum OpenThreadRESTLimits {
    /// The port ot-br-posix's REST server listens on by default (`--rest-listen-port`), where a border router found
    /// by DNS-SD is asked for it.
    public static let port: UInt16 = 8081

    /// How long the probe of `/.well-known/thread/br-rest` may take: a border router on the local network answers in
    /// milliseconds; one that serves no REST API should not hold the collection of another network.
    public static let probeSilence: Duration = .milliseconds(1500)

    /// How long any other request may take: the border router answers from memory, but runs on small hardware.
    public static let requestSilence: Duration = .seconds(5)

    /// The largest body read: a devices or diagnostics document of a large mesh is tens of kilobytes.
    public static let bodyLimit = 1 << 20

    /// How often a task's status is asked: the border router works its queue one task at a time, each a round trip
    /// over the mesh of tens to hundreds of milliseconds.
    public static let pollInterval: Duration = .seconds(1)

    /// The whole collection's deadline: what `get_thread_diagnostics` with an `ext_pan_id` may wait (matterjs-server
    /// refines its batches over about 20 s). A collection that reaches it answers what it has, marked `timeout`.
    public static let collection: Duration = .seconds(45)

    /// A device's `timeout` for one diagnostic task: an rx-on-when-idle device answers within a second; a sleepy
    /// one at its next poll of its parent, a few seconds. The border router works tasks one at a time, so a long
    /// timeout for one silent device would starve the rest.
    public static let taskTimeoutSeconds = 6

    /// The refresh of the devices collection (`updateDeviceCollectionTask`): its timeout in seconds and the age of a
    /// device's record the border router may still answer from (the openapi text's defaults are 60 and 30).
    public static let updateTimeoutSeconds = 15
    public static let updateMaxAgeSeconds = 30
    public static let updateRetries = 3

    /// The devices asked per collection: the border router keeps at most 200 actions (`MAX_ACTIONS_COLLECTION_ITEMS`)
    /// and works them in turn; a home's mesh is tens of devices.
    public static let devices = 64
}
