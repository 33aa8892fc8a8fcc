import Foundation
import MatterBTP
import MatterPlatform
import MatterTime

/// The hub's end of the BLE proxy protocol (matterjs-server's docs/ble-proxy-protocol.md, version 1): the proxy clients
/// connected to `/ble` (Home Assistant carrying its adapters' and ESPHome proxies' radios; a virtual device fresh
/// from its box) together are one `BluetoothCentral`. Any number of clients may connect, as matterjs-server accepts
/// them: a scan goes to every one (and to one that joins mid-scan); a peripheral belongs to the client that reported
/// it first, and to another that saw it once that one is gone; every client is pinged and one silent for more than
/// `BLEProxyTiming.silence` is dropped. BTP runs here, over the owning client's GATT: the capabilities request in `write_and_subscribe` (so the
/// client subscribes to C2 only after its write, and no early indication is lost), then binary frames both ways.
///
/// No sockets: the listener hands over each client's frames in order (`received`), says when it hears from one
/// (`heard`) and when one is gone (`closed`); the central sends through the closures it was given, on `clock`.
public actor BLEProxyCentral: BluetoothCentral {
    public nonisolated let name = "the BLE proxy"

    /// A client, as the listener numbers it.
    public typealias ClientID = Int

    /// What the central does to a client's connection.
    public struct ClientChannel: Sendable {
        let send: @Sendable (BLEProxyFrame) -> Void
        let ping: @Sendable () -> Void
        let close: @Sendable (String) -> Void

        public init(
            send: @escaping @Sendable (BLEProxyFrame) -> Void, ping: @escaping @Sendable () -> Void,
            close: @escaping @Sendable (String) -> Void
        ) {
            self.send = send
            self.ping = ping
            self.close = close
        }
    }

    private struct Client {
        let channel: ClientChannel
        var ready = false
        /// Pings sent since it last sent anything (a pong, a frame).
        var unansweredPings = 0
        var handshakeTimer: ClockTimer
        var nextCommandID = 0
        var pending: [Int: PendingCommand] = [:]
        var scanning = false
    }

    private struct PendingCommand {
        let continuation: CheckedContinuation<BLEProxyFields, any Error>
        let timer: ClockTimer
        let name: String
    }

    /// A device's address, the client that owns it and every client that has seen it.
    private struct Ownership {
        var owner: ClientID
        var seers: Set<ClientID>
        /// When a client last reported it: the least recent goes first past `BLEProxyTiming.peripherals`.
        var lastSeen: Instant
    }

    /// One BLE connection through a client: its BTP and the order of its GATT writes.
    private struct Link {
        let btp: BTPConnection
        let writes: AsyncStream<[UInt8]>.Continuation
    }

    private struct LinkKey: Hashable {
        let client: ClientID
        let handle: Int
    }

    /// A `find` waiting for its device.
    private struct Finder {
        let matches: @Sendable (MatterBLEAdvertisement) -> Bool
        let continuation: CheckedContinuation<BluetoothPeripheral, any Error>
        let timer: ClockTimer
    }

    private let clock: any DriverClock
    private var clients: [ClientID: Client] = [:]
    private var nextClientID: ClientID = 1
    private var owners: [String: Ownership] = [:]
    private var discovered: [String: BluetoothPeripheral] = [:]
    private var links: [LinkKey: Link] = [:]
    private var finders: [UUID: Finder] = [:]
    private var heartbeat = DeadlineTimer()
    /// Told whether any client is ready, each time that changes.
    private var availabilityObserver: (@Sendable (Bool) -> Void)?
    /// BluetoothConnection numbers of this central: high, so that they never meet another backend's.
    private var nextConnectionNumber: UInt64 = 1 << 48

    public init(clock: any DriverClock) {
        self.clock = clock
    }

    /// How many clients have said hello.
    public var readyClients: Int { clients.values.filter(\.ready).count }

    public var isAvailable: Bool { readyClients > 0 }

    /// How many peripherals the proxies have reported and the central keeps.
    public var knownPeripherals: Int { discovered.count }

    /// `observer` is told, from now on, whether a client is ready each time that changes (the first hello, the last
    /// ready client gone).
    public func observeAvailability(_ observer: @escaping @Sendable (Bool) -> Void) {
        availabilityObserver = observer
    }

    // MARK: Clients

    /// A client connected: it must say hello within `BLEProxyTiming.handshake`.
    public func connected(_ channel: ClientChannel) -> ClientID {
        let id = nextClientID
        nextClientID += 1
        let timer = clock.schedule(at: clock.now + BLEProxyTiming.handshake) { [weak self] in
            Task { await self?.handshakeTimedOut(id) }
        }
        clients[id] = Client(channel: channel, handshakeTimer: timer)
        armHeartbeat()
        return id
    }

    /// The client sent something (a frame, a pong): it is alive.
    public func heard(_ id: ClientID) {
        clients[id]?.unansweredPings = 0
    }

    /// One frame from the client, in the order it sent them.
    public func received(_ frame: BLEProxyFrame, from id: ClientID) async {
        guard let client = clients[id] else { return }
        clients[id]?.unansweredPings = 0
        switch frame {
        case .binary(let bytes):
            guard client.ready, let binary = BLEProxyBinaryFrame(bytes), binary.opcode == .notification,
                let link = links[LinkKey(client: id, handle: Int(binary.connectionHandle))]
            else { return }
            await link.btp.received(binary.payload)
        case .text(let text):
            guard let message = BLEProxyClientMessage.decode(text) else { return }
            guard client.ready else { return hello(message, from: id) }
            switch message {
            case .hello: break
            case .response(let commandID, let result): answered(commandID, result, from: id)
            case .event(let name, let data): await event(name, data, from: id)
            }
        }
    }

    /// The client's connection is gone: its commands fail, its links close, what it owned passes to another client
    /// that saw it.
    public func closed(_ id: ClientID) async {
        guard let client = clients.removeValue(forKey: id) else { return }
        client.handshakeTimer.cancel()
        if client.ready, readyClients == 0 { availabilityObserver?(false) }
        for pending in client.pending.values {
            pending.timer.cancel()
            pending.continuation.resume(
                throwing: BluetoothError.disconnected("the BLE proxy disconnected during \(pending.name)"))
        }
        for (address, var ownership) in owners {
            ownership.seers.remove(id)
            if ownership.owner == id {
                guard let next = ownership.seers.first(where: { clients[$0]?.ready == true }) else {
                    owners[address] = nil
                    discovered[address] = nil
                    continue
                }
                ownership.owner = next
            }
            owners[address] = ownership
        }
        for (key, link) in links where key.client == id {
            links[key] = nil
            link.writes.finish()
            await link.btp.lost("the BLE proxy carrying it disconnected")
        }
        if clients.isEmpty { heartbeat.cancel() }
    }

    private func hello(_ message: BLEProxyClientMessage, from id: ClientID) {
        guard let client = clients[id] else { return }
        guard case .hello(let version) = message else {
            client.channel.close("expected hello")
            return
        }
        client.handshakeTimer.cancel()
        guard version == BLEProxyProtocol.version else {
            client.channel.send(
                .text(
                    BLEProxyJSON.encode(
                        BLEProxyHello(
                            type: "hello_response", version: BLEProxyProtocol.version, error: "unsupported_version",
                            message:
                                "Server supports protocol version \(BLEProxyProtocol.version), client sent version \(version)"
                        ))))
            client.channel.close("unsupported protocol version")
            return
        }
        clients[id]?.ready = true
        if readyClients == 1 { availabilityObserver?(true) }
        client.channel.send(
            .text(BLEProxyJSON.encode(BLEProxyHello(type: "hello_response", version: BLEProxyProtocol.version))))
        // A client that joins while a device is being looked for looks too.
        if !finders.isEmpty { startScan(on: id) }
    }

    private func handshakeTimedOut(_ id: ClientID) {
        guard let client = clients[id], !client.ready else { return }
        client.channel.close("no hello within \(BLEProxyTiming.handshake)")
    }

    private func armHeartbeat() {
        guard heartbeat.deadline == nil else { return }
        heartbeat.arm(clock.now + BLEProxyTiming.ping, on: clock) { [weak self] deadline in
            await self?.beat(deadline)
        }
    }

    /// Pings every client; one that answered none of the last `BLEProxyTiming.unansweredPings` (silent for more than
    /// `BLEProxyTiming.silence` at the steady beat) is dropped. Counted in beats, not read off the clock: a clock
    /// that jumps (a machine that slept) costs a proxy one beat, not its place.
    private func beat(_ deadline: Instant) {
        guard heartbeat.fired(deadline) else { return }
        for (id, client) in clients {
            if client.unansweredPings >= BLEProxyTiming.unansweredPings {
                client.channel.close("silent for more than \(BLEProxyTiming.silence)")
            } else {
                clients[id]?.unansweredPings += 1
                client.channel.ping()
            }
        }
        if !clients.isEmpty { armHeartbeat() }
    }

    // MARK: Commands

    /// Sends `command` to the client and returns its result, or throws its failure, a timeout or its disconnection.
    private func command(_ command: BLEProxyCommand, to id: ClientID) async throws -> BLEProxyFields {
        guard let client = clients[id], client.ready else {
            throw BluetoothError.disconnected("the BLE proxy that saw the device is gone")
        }
        let commandID = client.nextCommandID
        clients[id]?.nextCommandID = (commandID + 1) & 0xFFFF
        let name = command.wire.0
        return try await withCheckedThrowingContinuation { continuation in
            let timer = clock.schedule(at: clock.now + BLEProxyTiming.command) { [weak self] in
                Task { await self?.commandTimedOut(commandID, of: id) }
            }
            clients[id]?.pending[commandID] = PendingCommand(continuation: continuation, timer: timer, name: name)
            client.channel.send(.text(command.encoded(id: commandID)))
        }
    }

    private func answered(_ commandID: Int, _ result: Result<BLEProxyFields, BLEProxyFailure>, from id: ClientID) {
        guard let pending = clients[id]?.pending.removeValue(forKey: commandID) else { return }
        pending.timer.cancel()
        pending.continuation.resume(with: result.mapError { $0 })
    }

    private func commandTimedOut(_ commandID: Int, of id: ClientID) {
        guard let pending = clients[id]?.pending.removeValue(forKey: commandID) else { return }
        pending.continuation.resume(
            throwing: BluetoothError.connectionFailed(
                "the BLE proxy did not answer \(pending.name) within \(BLEProxyTiming.command)"))
    }

    /// A command whose answer nobody waits for (stopping a scan, a last disconnect).
    private func fireAndForget(_ command: BLEProxyCommand, to id: ClientID) {
        Task { _ = try? await self.command(command, to: id) }
    }

    // MARK: Events

    private func event(_ name: String, _ data: BLEProxyFields, from id: ClientID) async {
        switch name {
        case "device_discovered":
            guard let address = data.address,
                let serviceData = data.serviceData?.first(where: {
                    BluetoothUUID.same($0.key, BluetoothUUID.matterService)
                })?.value,
                let bytes = Data(base64Encoded: serviceData),
                let advertisement = MatterBLEAdvertisement(serviceData: Array(bytes))
            else { return }
            var ownership = owners[address] ?? Ownership(owner: id, seers: [], lastSeen: clock.now)
            ownership.seers.insert(id)
            ownership.lastSeen = clock.now
            if clients[ownership.owner]?.ready != true { ownership.owner = id }
            if owners[address] == nil, owners.count >= BLEProxyTiming.peripherals,
                let stalest = owners.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key
            {
                owners[stalest] = nil
                discovered[stalest] = nil
            }
            owners[address] = ownership
            let peripheral = BluetoothPeripheral(
                address: address, advertisement: advertisement, name: data.name, rssi: data.rssi)
            discovered[address] = peripheral
            for (key, finder) in finders where finder.matches(advertisement) {
                finders[key] = nil
                finder.timer.cancel()
                finder.continuation.resume(returning: peripheral)
            }
            if finders.isEmpty { stopScanning() }
        case "disconnected":
            guard let handle = data.connectionHandle,
                let link = links.removeValue(forKey: LinkKey(client: id, handle: handle))
            else { return }
            link.writes.finish()
            await link.btp.lost("the peripheral disconnected\(data.reason.map { " (\($0))" } ?? "")")
        case "scan_stopped":
            clients[id]?.scanning = false
        case "characteristic_notification":
            guard let handle = data.connectionHandle, let value = data.value.flatMap({ Data(base64Encoded: $0) }),
                let link = links[LinkKey(client: id, handle: handle)]
            else { return }
            await link.btp.received(Array(value))
        default:
            break
        }
    }

    // MARK: BluetoothCentral

    public func find(
        matching: @escaping @Sendable (MatterBLEAdvertisement) -> Bool, timeout: Duration
    ) async throws(BluetoothError) -> BluetoothPeripheral {
        guard readyClients > 0 else {
            throw .unavailable(
                "no BLE proxy is connected to the hub's /ble (Home Assistant 2026.6 or later, or `matter-device --ble-proxy`)"
            )
        }
        // A device a proxy reported already, and whose owner is still there, needs no new scan.
        if let known = discovered.values.first(where: {
            matching($0.advertisement) && clients[owners[$0.address]?.owner ?? 0]?.ready == true
        }) {
            return known
        }
        let key = UUID()
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let timer = clock.schedule(at: clock.now + timeout) { [weak self] in
                    Task { await self?.findTimedOut(key, timeout) }
                }
                finders[key] = Finder(matches: matching, continuation: continuation, timer: timer)
                for (id, client) in clients where client.ready && !client.scanning { startScan(on: id) }
            }
        } catch let error as BluetoothError {
            throw error
        } catch {
            throw .notFound("\(error)")
        }
    }

    private func startScan(on id: ClientID) {
        clients[id]?.scanning = true
        Task {
            do {
                _ = try await command(
                    .startScan(serviceUUIDs: ["fff6"], allowDuplicates: true), to: id)
            } catch {
                clients[id]?.scanning = false
            }
        }
    }

    private func stopScanning() {
        for (id, client) in clients where client.scanning {
            clients[id]?.scanning = false
            fireAndForget(.stopScan, to: id)
        }
    }

    private func findTimedOut(_ key: UUID, _ timeout: Duration) {
        guard let finder = finders.removeValue(forKey: key) else { return }
        finder.continuation.resume(
            throwing: BluetoothError.notFound(
                "no device advertising over Bluetooth LE matched within \(timeout) (\(readyClients) BLE proxy clients scanning)"
            ))
        if finders.isEmpty { stopScanning() }
    }

    public func connect(
        _ peripheral: BluetoothPeripheral, transport: MatterTransport
    ) async throws(BluetoothError) -> BTPConnection {
        guard let owner = owners[peripheral.address]?.owner, clients[owner]?.ready == true else {
            throw .unavailable("no BLE proxy that saw \(peripheral.address) is connected")
        }
        do {
            return try await open(peripheral, through: owner, transport: transport)
        } catch let error as BluetoothError {
            throw error
        } catch let failure as BLEProxyFailure {
            throw .connectionFailed("the BLE proxy could not reach \(peripheral.address): \(failure)")
        } catch {
            throw .connectionFailed("\(error)")
        }
    }

    private func open(
        _ peripheral: BluetoothPeripheral, through owner: ClientID, transport: MatterTransport
    ) async throws -> BTPConnection {
        let connected = try await command(
            .connect(
                address: peripheral.address,
                timeoutMilliseconds: Int(BLEProxyTiming.connect.components.seconds) * 1000), to: owner)
        guard let handle = connected.connectionHandle else {
            throw BluetoothError.connectionFailed("the BLE proxy's connect answer has no connection_handle")
        }
        do {
            let services = try await command(.discoverServices(handle: handle), to: owner).services ?? []
            guard let service = services.first(where: { BluetoothUUID.same($0.uuid, BluetoothUUID.matterService) })
            else { throw BluetoothError.connectionFailed("\(peripheral.address) has no Matter service (0xFFF6)") }
            let characteristics =
                try await command(.discoverCharacteristics(handle: handle, serviceUUID: service.uuid), to: owner)
                .characteristics ?? []
            guard let c1 = characteristics.first(where: { BluetoothUUID.same($0.uuid, MatterBLEAdvertisement.c1) }),
                let c2 = characteristics.first(where: { BluetoothUUID.same($0.uuid, MatterBLEAdvertisement.c2) })
            else {
                throw BluetoothError.connectionFailed("\(peripheral.address)'s Matter service lacks C1 or C2")
            }
            let key = LinkKey(client: owner, handle: handle)
            let (writes, writer) = AsyncStream<[UInt8]>.makeStream()
            let connection = BluetoothConnection(id: nextConnectionNumber)
            nextConnectionNumber += 1
            let btp = await BTPConnection.central(
                connection, attMTU: UInt16(clamping: connected.mtu ?? 0), transport: transport,
                gatt: { writer.yield($0) },
                closed: { [weak self] _ in Task { await self?.linkEnded(key) } })
            links[key] = Link(btp: btp, writes: writer)
            Task { await self.carry(writes, for: btp, to: key, c1: c1.uuid, c2: c2.uuid) }
            do {
                try await btp.connected()
            } catch let error as BTPError {
                throw BluetoothError.transport(error)
            }
            return btp
        } catch {
            if let link = links.removeValue(forKey: LinkKey(client: owner, handle: handle)) {
                link.writes.finish()
                await link.btp.close()
            }
            fireAndForget(.disconnect(handle: handle), to: owner)
            throw error
        }
    }

    /// The BTP packets of one link to its client, in order: the first (the capabilities request) written with C2's
    /// subscription, the rest as binary frames; each confirmed once it is on its way.
    private func carry(
        _ writes: AsyncStream<[UInt8]>, for btp: BTPConnection, to key: LinkKey, c1: String, c2: String
    ) async {
        var first = true
        for await packet in writes {
            guard let client = clients[key.client] else { return }
            if first {
                first = false
                do {
                    _ = try await command(
                        .writeAndSubscribe(
                            handle: key.handle, writeUUID: c1, value: packet, withResponse: true, subscribeUUID: c2),
                        to: key.client)
                } catch {
                    await btp.close()
                    return
                }
            } else {
                client.channel.send(
                    .binary(
                        BLEProxyBinaryFrame(.writeData, connectionHandle: UInt16(key.handle), payload: packet).bytes))
            }
            await btp.packetConfirmed()
        }
    }

    /// BTP ended the link (closed by the commissioner, or failed): the proxy disconnects the peripheral.
    private func linkEnded(_ key: LinkKey) {
        guard let link = links.removeValue(forKey: key) else { return }
        link.writes.finish()
        if clients[key.client]?.ready == true { fireAndForget(.disconnect(handle: key.handle), to: key.client) }
    }
}
