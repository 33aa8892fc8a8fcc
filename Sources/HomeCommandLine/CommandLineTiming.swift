/// Every timing of the `home` tool, with the reason for its value.
enum CommandLineTiming {
    /// How long `home devices --live` and `home show` wait for a node to come online before reporting it as not
    /// answering. A reachable node answers CASE and its priming report in well under a second (CircuitMatter, in
    /// Python, in about 0.1 s); ten seconds leave room for MRP retransmissions on a lossy network without making a
    /// person wait long for a device that is gone.
    static let liveAnswer: Duration = .seconds(10)
    /// How often the devices of `home demo` simulate (a sensor drifts): fast enough that three temperature changes
    /// arrive within a few seconds.
    static let demoSimulationStep: Duration = .milliseconds(500)
    /// The longest one step of `home demo` may take: over loopback a commissioning takes well under a second, so a
    /// step still running after this has hung.
    static let demoStep: Duration = .seconds(20)
}
