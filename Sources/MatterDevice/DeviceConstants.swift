import MatterNode

// Every limit and timing of the virtual device's simulation and tool, each with its reason (the node's own are
// `NodeConstants` and `NodeTiming`).
public enum DeviceConstants {
    /// Finding a registered client by operational DNS-SD when it checks in: the device is awake for its active mode
    /// (10 s by default), and the answer must leave it time to send.
    static let checkInResolve: Duration = .seconds(3)
    /// Matter Core §2.5.2: 0xFFF1 is a test vendor ID, 0x8000 a test product ID; the defaults of a development device.
    public static let defaultVendorID: UInt16 = 0xFFF1
    public static let defaultProductID: UInt16 = 0x8000
    /// Matter Application Clusters §1.6.6.3: with the Lighting feature, levels run from 1 to 254 (255 is not a level).
    public static let lightingLevels: ClosedRange<UInt8> = 1...254
    /// Matter Application Clusters §3.2.7.20: the white range a typical tunable lamp covers, 6500 K to 2000 K.
    public static let colorTemperatureMireds: ClosedRange<UInt16> = 153...500
    /// Matter Application Clusters §3.2.7.4: CurrentX and CurrentY run from 0 to 0xFEFF.
    public static let chromaticityRange: ClosedRange<UInt16> = 0...0xFEFF
    /// Matter Application Clusters §3.2.7.1: CurrentHue and CurrentSaturation run from 0 to 254.
    public static let hueSaturationRange: ClosedRange<UInt8> = 0...254
    /// Matter Application Clusters §2.3.6.2: the simulated room's temperature range in 0.01 °C (15 °C to 30 °C), and
    /// the most one simulation step moves it (0.25 °C).
    public static let temperatureRange: ClosedRange<Int16> = 1_500...3_000
    public static let temperatureDrift: Int16 = 25
    /// Matter Application Clusters §2.6.4.1: the simulated room's relative humidity in 0.01 % (30 % to 70 %), and the
    /// most one simulation step moves it (1 %).
    public static let humidityRange: ClosedRange<UInt16> = 3_000...7_000
    public static let humidityDrift: UInt16 = 100
    /// Matter Core §9.13.5.5 NodeLabel: at most 32 bytes, which a bridged device's label is too.
    public static let nodeLabelLength = 32
    /// How many devices one `matter-device --count` runs: each holds two UDP sockets (IPv4 and IPv6), and 10,000
    /// devices' 20,000 descriptors is what a raised descriptor limit commonly allows; a home of 1,000 nodes, the
    /// scale the hub is measured at, fits ten times over.
    public static let farmSizes: ClosedRange<Int> = 1...10_000
    /// Matter Core §11.21.7: how many times the requestor asks ApplyUpdateRequest before it gives the image up (a
    /// provider that keeps saying AwaitNextAction), the longest delay it takes from a provider (a virtual device waits
    /// minutes, not the days a field might say), and the least it waits after AwaitNextAction (§11.21.6.5.4: 2 min).
    static let otaApplyRequests = 3
    /// QueryImage asked at most this many times while the provider says Busy.
    static let otaQueries = 3
    static let otaLongestDelaySeconds: UInt32 = 300
    static let otaAwaitNextActionMinimumSeconds = 120
    /// How often the requestor asks its default providers on its own (Matter Core §11.21.7: a requestor queries
    /// its DefaultOTAProviders on a schedule of its own): connectedhomeip's requestor's default, 24 hours. The first
    /// time a day after it starts: a provider with an update waiting announces it at once.
    static let otaQueryInterval: Duration = .seconds(24 * 3600)
    /// Descriptors a farm keeps free beyond its devices' sockets: standard streams, the event loop's epoll and
    /// wake-up descriptors, state files being written.
    static let processDescriptorReserve = 64
    /// The chance, one in this many, that a simulation step opens or closes a contact sensor or presses a button.
    public static let simulatedEventOdds: UInt64 = 4
}

/// How often and how long the device waits, each with its reason.
public enum DeviceTiming {
    /// How often a virtual device acts on its own (sensor drift, contact flips, button presses): slow enough that a
    /// console is readable, fast enough that a person watching a controller sees it live.
    public static let simulationStep: Duration = .seconds(10)
}
