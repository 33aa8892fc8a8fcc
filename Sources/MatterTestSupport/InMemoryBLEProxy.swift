import BLEProxy
import MatterBTP
import MatterPlatform
import Synchronization

/// A virtual peripheral connected to a hub's `BLEProxyCentral` as a proxy client, in memory: each side's frames reach
/// the other in the order they were sent, as over one WebSocket. Every frame either way is recorded.
public final class InMemoryBLEProxy: Sendable {
    public let id: BLEProxyCentral.ClientID
    public let peripheral: BLEProxyPeripheral
    private let recorded = Recorded()

    private final class Recorded: Sendable {
        let entries = Mutex<[(toPeripheral: Bool, frame: BLEProxyFrame)]>([])
    }
    private let pumps: [Task<Void, Never>]

    /// Connects a peripheral at `address` over `transport` (the device's), advertising what `advertisement` says,
    /// and says its hello.
    public init(
        central: BLEProxyCentral, address: String, transport: MatterTransport,
        advertisement: @escaping @Sendable () async -> MatterBLEAdvertisement?
    ) async {
        let (toPeripheral, intoPeripheral) = AsyncStream<BLEProxyFrame>.makeStream()
        let (toCentral, intoCentral) = AsyncStream<BLEProxyFrame>.makeStream()
        let recorded = recorded
        id = await central.connected(
            .init(
                send: { frame in
                    recorded.entries.withLock { $0.append((true, frame)) }
                    intoPeripheral.yield(frame)
                }, ping: {}, close: { _ in intoCentral.finish() }))
        peripheral = BLEProxyPeripheral(
            address: address, transport: transport, advertisement: advertisement,
            send: { frame in
                recorded.entries.withLock { $0.append((false, frame)) }
                intoCentral.yield(frame)
            })
        let (peripheral, id) = (peripheral, id)
        pumps = [
            Task { for await frame in toPeripheral { await peripheral.received(frame) } },
            Task {
                for await frame in toCentral { await central.received(frame, from: id) }
                await central.closed(id)
            },
        ]
        await peripheral.start()
    }

    deinit {
        for pump in pumps { pump.cancel() }
    }

    /// The names of the JSON commands the hub sent, in order.
    public var commands: [String] {
        recorded.entries.withLock { $0 }.compactMap { entry in
            guard entry.toPeripheral, case .text(let text) = entry.frame,
                let (_, command) = BLEProxyCommand.decode(text)
            else { return nil }
            return String("\(command)".prefix { $0 != "(" })
        }
    }

    /// How many binary frames went each way (BTP packets after the handshake request).
    public var binaryFrames: (toPeripheral: Int, toCentral: Int) {
        let all = recorded.entries.withLock { $0 }
        let binary = all.filter { if case .binary = $0.frame { true } else { false } }
        return (binary.filter(\.toPeripheral).count, binary.filter { !$0.toPeripheral }.count)
    }
}
