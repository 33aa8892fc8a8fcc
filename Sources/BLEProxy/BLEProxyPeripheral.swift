import Foundation
import MatterBTP
import MatterPlatform

/// A proxy client that owns one peripheral, itself: a virtual device fresh from its box, reachable only over Bluetooth
/// LE, reaches the hub through the hub's `/ble` as Home Assistant's proxies do (docs/ble-proxy-protocol.md, version
/// 1). It says hello, reports its own advertisement when the hub scans and it is advertising, and answers connect,
/// service and characteristic discovery with the Matter service's C1 (write) and C2 (indicate). What the hub writes
/// to C1 goes to the device's BTP; what its BTP indicates on C2 goes back as binary notifications. One connection at a
/// time, as a real device allows.
///
/// No sockets: the runtime hands over the hub's frames in order (`received`); the peripheral sends through `send`.
public actor BLEProxyPeripheral {
    /// The device's own address, as a proxy would report it.
    public nonisolated let address: String
    private let transport: MatterTransport
    /// What the device advertises now; nil while it does not (commissioned, or its window closed).
    private let advertisement: @Sendable () async -> MatterBLEAdvertisement?
    private let send: @Sendable (BLEProxyFrame) -> Void
    private let log: @Sendable (String) -> Void
    private var greeted = false
    private var scanning = false
    private var link: (handle: Int, btp: BTPConnection)?
    private var nextHandle = 1

    public init(
        address: String, transport: MatterTransport,
        advertisement: @escaping @Sendable () async -> MatterBLEAdvertisement?,
        send: @escaping @Sendable (BLEProxyFrame) -> Void, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.address = address
        self.transport = transport
        self.advertisement = advertisement
        self.send = send
        self.log = log
    }

    /// Says hello: the first frame of the connection.
    public func start() {
        send(.text(BLEProxyClientMessage.hello(version: BLEProxyProtocol.version).encoded))
    }

    /// Whether the hub accepted the hello.
    public var isGreeted: Bool { greeted }

    /// Whether a central is connected over BLE.
    public var isConnected: Bool { link != nil }

    /// One frame from the hub, in order.
    public func received(_ frame: BLEProxyFrame) async {
        switch frame {
        case .binary(let bytes):
            guard let binary = BLEProxyBinaryFrame(bytes), binary.opcode == .writeData, let link,
                Int(binary.connectionHandle) == link.handle
            else { return }
            await link.btp.received(binary.payload)
        case .text(let text):
            if !greeted {
                if let hello = BLEProxyJSON.decode(BLEProxyHello.self, text), hello.type == "hello_response" {
                    greeted = hello.error == nil
                    if let error = hello.error {
                        log("[ble] the hub refused the proxy: \(error) \(hello.message ?? "")")
                    }
                }
                return
            }
            guard let (id, command) = BLEProxyCommand.decode(text) else { return }
            let result = await run(command)
            send(.text(BLEProxyClientMessage.response(id: id, result).encoded))
            if case .startScan = command, case .success = result { await reportIfAdvertising() }
        }
    }

    /// The connection to the hub is gone: a BLE connection through it ends too.
    public func hubDisconnected() async {
        scanning = false
        if let link {
            self.link = nil
            await link.btp.lost("the hub's /ble connection closed")
        }
    }

    private func reportIfAdvertising() async {
        guard scanning, link == nil, let advertisement = await advertisement() else { return }
        let data = BLEProxyFields(
            address: address, name: "MATTER-\(advertisement.discriminator)", rssi: -40, connectable: true,
            serviceData: ["fff6": Data(advertisement.serviceData).base64EncodedString()], serviceUuids: ["fff6"])
        send(.text(BLEProxyClientMessage.event(name: "device_discovered", data: data).encoded))
    }

    private func fail(_ code: String, _ message: String) -> Result<BLEProxyFields, BLEProxyFailure> {
        .failure(BLEProxyFailure(code: code, message: message))
    }

    private func run(_ command: BLEProxyCommand) async -> Result<BLEProxyFields, BLEProxyFailure> {
        switch command {
        case .startScan:
            guard !scanning else { return fail("already_scanning", "a scan is already in progress") }
            scanning = true
            return .success(BLEProxyFields())
        case .stopScan:
            guard scanning else { return fail("not_scanning", "no scan is active") }
            scanning = false
            return .success(BLEProxyFields())
        case .connect(let address, _):
            guard BluetoothUUID.canonical(address) == BluetoothUUID.canonical(self.address),
                await advertisement() != nil
            else { return fail("device_not_found", "\(address) is not advertising") }
            guard link == nil else { return fail("already_connected", "already connected to \(address)") }
            let handle = nextHandle
            nextHandle += 1
            let (indications, indicate) = AsyncStream<[UInt8]>.makeStream()
            let btp = await BTPConnection.peripheral(
                BluetoothConnection(id: UInt64(handle)),
                maximumSegmentSize: BLEProxyTiming.virtualPeripheralMTU - BTPConstants.attHeaderSize,
                transport: transport, gatt: { indicate.yield($0) },
                closed: { [weak self] reason in
                    indicate.finish()
                    Task { await self?.btpEnded(handle, reason) }
                })
            // Each indication goes out as a binary notification, and is confirmed once it is on its way (the proxy's
            // WebSocket carries it in order), so BTP sends its next packet.
            let send = send
            Task {
                for await packet in indications {
                    send(
                        .binary(
                            BLEProxyBinaryFrame(.notification, connectionHandle: UInt16(handle), payload: packet).bytes)
                    )
                    await btp.packetConfirmed()
                }
            }
            link = (handle, btp)
            log("[ble] connected over the BLE proxy (handle \(handle))")
            return .success(BLEProxyFields(connectionHandle: handle, mtu: BLEProxyTiming.virtualPeripheralMTU))
        case .disconnect(let handle):
            guard let link, link.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            self.link = nil
            await link.btp.close()
            log("[ble] the hub disconnected")
            return .success(BLEProxyFields())
        case .discoverServices(let handle):
            guard link?.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            return .success(BLEProxyFields(services: [.init(uuid: "fff6")]))
        case .discoverCharacteristics(let handle, let service):
            guard link?.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            guard BluetoothUUID.same(service, BluetoothUUID.matterService) else {
                return fail("service_not_found", "\(service) is not served")
            }
            return .success(
                BLEProxyFields(characteristics: [
                    .init(uuid: MatterBLEAdvertisement.c1, properties: ["write"]),
                    .init(uuid: MatterBLEAdvertisement.c2, properties: ["indicate"]),
                ]))
        case .writeAndSubscribe(let handle, let write, let value, _, let subscribe):
            guard let link, link.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            guard BluetoothUUID.same(write, MatterBLEAdvertisement.c1),
                BluetoothUUID.same(subscribe, MatterBLEAdvertisement.c2)
            else { return fail("characteristic_not_found", "BTP writes C1 and subscribes to C2") }
            await link.btp.received(value)
            return .success(BLEProxyFields())
        case .writeCharacteristic(let handle, let uuid, let value, _):
            guard let link, link.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            guard BluetoothUUID.same(uuid, MatterBLEAdvertisement.c1) else {
                return fail("characteristic_not_found", "only C1 is writable")
            }
            await link.btp.received(value)
            return .success(BLEProxyFields())
        case .subscribeCharacteristic(let handle, let uuid), .unsubscribeCharacteristic(let handle, let uuid):
            guard link?.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            guard BluetoothUUID.same(uuid, MatterBLEAdvertisement.c2) else {
                return fail("notify_not_supported", "only C2 indicates")
            }
            return .success(BLEProxyFields())
        case .readCharacteristic(let handle, let uuid):
            guard link?.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            return fail("characteristic_not_found", "\(uuid) is not served (this device has no C3)")
        case .requestMTU(let handle, _):
            guard link?.handle == handle else { return fail("not_connected", "no connection \(handle)") }
            return .success(BLEProxyFields(mtu: BLEProxyTiming.virtualPeripheralMTU))
        case .other(let name):
            return fail("internal_error", "\(name) is not a command of version \(BLEProxyProtocol.version)")
        }
    }

    /// BTP ended (the hub let go, or the link failed): the hub hears `disconnected` unless it asked for it.
    private func btpEnded(_ handle: Int, _ reason: BTPError) async {
        guard let link, link.handle == handle else { return }
        self.link = nil
        send(
            .text(
                BLEProxyClientMessage.event(
                    name: "disconnected", data: BLEProxyFields(connectionHandle: handle, reason: "\(reason)")
                ).encoded))
        log("[ble] BLE connection ended: \(reason)")
        await reportIfAdvertising()
    }
}
