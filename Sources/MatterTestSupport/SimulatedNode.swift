/// A participant of a `SimulatedNetwork`: it reacts to datagrams and to its own timer by returning datagrams
/// to send. A class, so a test keeps a reference and inspects what the node did after the run.
public protocol SimulatedNode: AnyObject {
    /// When the node wants `handleTimer(now:)`; nil while it waits for nothing.
    var nextDeadline: Duration? { get }
    func receive(
        _ datagram: [UInt8], from sender: SimulatedNetwork.Address, now: Duration
    ) -> [SimulatedNetwork.Outgoing]
    func handleTimer(now: Duration) -> [SimulatedNetwork.Outgoing]
}
