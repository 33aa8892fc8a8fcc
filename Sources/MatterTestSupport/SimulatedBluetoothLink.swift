import MatterBTP
import MatterPlatform
import Synchronization

/// Two transports joined by one Bluetooth LE connection carrying BTP: the first is the central (the commissioner,
/// writing C1), the second the peripheral (the device, indicating on C2), each behind a `BTPConnection`. Each GATT
/// operation reaches the other side in order and is then confirmed to its sender. Every message the transports hand
/// to BTP and every BTP packet are recorded.
public final class SimulatedBluetoothLink: Sendable {
    public let connection: BluetoothConnection
    public let central: BTPConnection
    public let peripheral: BTPConnection
    private let recorded = Recorded()
    private let pumps: [Task<Void, Never>]

    private final class Recorded: Sendable {
        let packets = Mutex<[[UInt8]]>([])
        let closures = Mutex<[BTPError]>([])
    }

    /// `attMTU` is the central's link MTU; `maximumSegmentSize` what the peripheral's stack carries.
    public init(
        _ centralTransport: MatterTransport, _ peripheralTransport: MatterTransport, connection: BluetoothConnection,
        attMTU: UInt16 = 247, maximumSegmentSize: Int? = 244
    ) async {
        self.connection = connection
        let recorded = recorded
        let (toPeripheral, intoPeripheral) = AsyncStream<[UInt8]>.makeStream()
        let (toCentral, intoCentral) = AsyncStream<[UInt8]>.makeStream()
        let closed: @Sendable (BTPError) -> Void = { error in recorded.closures.withLock { $0.append(error) } }
        peripheral = await BTPConnection.peripheral(
            connection, maximumSegmentSize: maximumSegmentSize, transport: peripheralTransport,
            gatt: { packet in
                recorded.packets.withLock { $0.append(packet) }
                intoCentral.yield(packet)
            }, closed: closed)
        let peripheral = peripheral
        // The central writes its request as it is made: the pumps must run before.
        let centralBox = Mutex<BTPConnection?>(nil)
        let pendingToPeripheral = toPeripheral
        let pumpToPeripheral = Task {
            for await packet in pendingToPeripheral {
                await peripheral.received(packet)
                // The write's response comes once the peripheral has the packet.
                await centralBox.withLock { $0 }?.packetConfirmed()
            }
        }
        let centralLink = await BTPConnection.central(
            connection, attMTU: attMTU, transport: centralTransport,
            gatt: { packet in
                recorded.packets.withLock { $0.append(packet) }
                intoPeripheral.yield(packet)
            }, closed: closed)
        central = centralLink
        centralBox.withLock { $0 = centralLink }
        pumps = [
            pumpToPeripheral,
            Task {
                for await packet in toCentral {
                    await centralLink.received(packet)
                    await peripheral.packetConfirmed()
                }
            },
        ]
    }

    deinit {
        for pump in pumps { pump.cancel() }
    }

    /// Every BTP packet sent over the connection so far, either way, in the order they were sent.
    public var packets: [[UInt8]] { recorded.packets.withLock { $0 } }

    /// Why each side's BTP session ended, when it did.
    public var closures: [BTPError] { recorded.closures.withLock { $0 } }
}
