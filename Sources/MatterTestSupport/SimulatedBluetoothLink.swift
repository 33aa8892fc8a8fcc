import MatterPlatform
import Synchronization

/// Two transports joined by one Bluetooth LE connection as a BTP session joins them: every message arrives whole,
/// once and in order (a reliable link), and each one sent either way is recorded.
public final class SimulatedBluetoothLink: Sendable {
    public let connection: BluetoothConnection
    private let recorded = Recorded()
    private let pumps: [Task<Void, Never>]

    private final class Recorded: Sendable {
        let messages = Mutex<[[UInt8]]>([])
    }

    public init(_ one: MatterTransport, _ other: MatterTransport, connection: BluetoothConnection) async {
        self.connection = connection
        let (toOther, intoOther) = AsyncStream<[UInt8]>.makeStream()
        let (toOne, intoOne) = AsyncStream<[UInt8]>.makeStream()
        let recorded = recorded
        await one.attach(connection) { message in
            recorded.messages.withLock { $0.append(message) }
            intoOther.yield(message)
        }
        await other.attach(connection) { message in
            recorded.messages.withLock { $0.append(message) }
            intoOne.yield(message)
        }
        // One pump per direction keeps each direction's order.
        pumps = [
            Task { for await message in toOther { await other.receive(message, from: connection) } },
            Task { for await message in toOne { await one.receive(message, from: connection) } },
        ]
    }

    deinit {
        for pump in pumps { pump.cancel() }
    }

    /// Every message sent over the connection so far, either way, in the order they were sent.
    public var messages: [[UInt8]] { recorded.messages.withLock { $0 } }
}
