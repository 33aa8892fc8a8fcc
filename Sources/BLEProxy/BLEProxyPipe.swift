import MatterBTP
import MatterPlatform
import Synchronization

/// A virtual peripheral connected to a hub's `BLEProxyCentral` as a proxy client within one process, no socket
/// between them: each side's frames reach the other in the order they were sent, as over one WebSocket. For a demo
/// that runs the hub and a device fresh from its box side by side, and for tests, which ask it to record every frame.
public final class BLEProxyPipe: Sendable {
    public let id: BLEProxyCentral.ClientID
    public let peripheral: BLEProxyPeripheral
    private let recorded = Recorded()

    private final class Recorded: Sendable {
        let entries = Mutex<[(toPeripheral: Bool, frame: BLEProxyFrame)]>([])
    }
    private let pumps: [Task<Void, Never>]

    /// Connects the peripheral `makePeripheral` makes (given how it sends) to `central`, and says its hello; with
    /// `recording`, every frame either way is kept.
    public init(
        central: BLEProxyCentral, recording: Bool = false,
        peripheral makePeripheral: (@escaping @Sendable (BLEProxyFrame) -> Void) async -> BLEProxyPeripheral
    ) async {
        let (toPeripheral, intoPeripheral) = AsyncStream<BLEProxyFrame>.makeStream()
        let (toCentral, intoCentral) = AsyncStream<BLEProxyFrame>.makeStream()
        let recorded = recorded
        // A ping is answered as a WebSocket answers it, with a pong the central hears.
        let pingedID = Mutex<BLEProxyCentral.ClientID?>(nil)
        id = await central.connected(
            .init(
                send: { frame in
                    if recording { recorded.entries.withLock { $0.append((true, frame)) } }
                    intoPeripheral.yield(frame)
                },
                ping: { [weak central] in
                    guard let id = pingedID.withLock({ $0 }) else { return }
                    Task { await central?.heard(id) }
                }, close: { _ in intoCentral.finish() }))
        pingedID.withLock { [id] in $0 = id }
        peripheral = await makePeripheral { frame in
            if recording { recorded.entries.withLock { $0.append((false, frame)) } }
            intoCentral.yield(frame)
        }
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

    /// The names of the JSON commands the hub sent, in order (when recording).
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
