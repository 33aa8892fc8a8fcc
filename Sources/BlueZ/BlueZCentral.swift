import Foundation
import MatterBTP
import MatterPlatform
import Synchronization

/// A local Bluetooth adapter as the commissioner's central, through BlueZ over D-Bus (BlueZ's adapter-api,
/// device-api and gatt-api): discovery filtered to the Matter service's UUID on LE, each device's service data
/// matched against the payload's discriminator; `Device1.Connect`, the Matter service's C1 and C2 once the device's
/// services are resolved, C2's indications by `StartNotify` and the `Value` changes BlueZ signals, C1's writes as
/// write requests, each confirmed by its reply. The ATT MTU is C1's `MTU` property when BlueZ has it.
public actor BlueZCentral: BluetoothCentral {
    public nonisolated let name: String
    private let bus: DBusConnection
    private let adapterName: String
    /// The devices found, by address: their object paths.
    private var devicePaths: [String: String] = [:]
    private var nextConnectionNumber: UInt64 = 2 << 48

    static let service = "org.bluez"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let characteristic = "org.bluez.GattCharacteristic1"

    /// The adapter BlueZ names `adapter` (hci0), on `bus` (the system bus; a test's private one).
    public init(adapter: String, bus: DBusConnection) {
        adapterName = adapter
        name = "adapter \(adapter)"
        self.bus = bus
    }

    public var isAvailable: Bool {
        get async { (try? await adapterPath()) != nil }
    }

    /// Calls `changed` each time the adapter's properties change (it is powered on or off, as BlueZ signals it with
    /// PropertiesChanged), until the subscription is cancelled: whoever shows whether it is available reads
    /// `isAvailable` again then.
    public nonisolated func watchAvailability(_ changed: @escaping @Sendable () -> Void) throws -> DBusSubscription {
        let suffix = "/" + adapterName
        return try bus.subscribe(interface: Self.properties, member: "PropertiesChanged", pathPrefix: "/org/bluez") {
            path, arguments in
            guard path.hasSuffix(suffix), arguments.first?.string == Self.adapterInterface else { return }
            changed()
        }
    }

    /// Every object BlueZ has, with its interfaces' properties.
    private func managedObjects() async throws -> [String: [String: DBusValue]] {
        let reply = try await bus.call(Self.service, "/", Self.objectManager, "GetManagedObjects")
        guard let objects = reply.first?.entries else { return [:] }
        return objects.mapValues { $0.entries ?? [:] }
    }

    /// The adapter's object path, once it is there and powered.
    private func adapterPath() async throws(BluetoothError) -> String {
        let objects: [String: [String: DBusValue]]
        do {
            objects = try await managedObjects()
        } catch {
            throw .unavailable("BlueZ is not reachable over D-Bus (\(error)): is bluetoothd running?")
        }
        let adapters = objects.filter { $0.value[Self.adapterInterface] != nil }
        guard let (path, interfaces) = adapters.first(where: { $0.key.hasSuffix("/" + adapterName) }) else {
            let known = adapters.keys.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.sorted()
            throw .unavailable(
                "BlueZ has no adapter \(adapterName)\(known.isEmpty ? "" : " (it has \(known.joined(separator: ", ")))")"
            )
        }
        guard interfaces[Self.adapterInterface]?.entries?["Powered"]?.bool == true else {
            throw .unavailable("adapter \(adapterName) is powered off (bluetoothctl power on)")
        }
        return path
    }

    /// A device's Matter advertisement from its Device1 properties.
    private static func advertisement(_ device: [String: DBusValue]) -> MatterBLEAdvertisement? {
        guard let serviceData = device["ServiceData"]?.entries,
            let data = serviceData.first(where: { BluetoothUUID.same($0.key, BluetoothUUID.matterService) })?.value
                .bytes
        else { return nil }
        return MatterBLEAdvertisement(serviceData: data)
    }

    // MARK: BluetoothCentral

    public func find(
        matching: @escaping @Sendable (MatterBLEAdvertisement) -> Bool, timeout: Duration
    ) async throws(BluetoothError) -> BluetoothPeripheral {
        let adapter = try await adapterPath()
        let (found, report) = AsyncStream<BluetoothPeripheral>.makeStream()
        // What BlueZ adds or learns while discovering.
        let consider: @Sendable ([String: DBusValue]) -> Void = { device in
            guard let advertisement = Self.advertisement(device), matching(advertisement),
                let address = device["Address"]?.string
            else { return }
            report.yield(
                BluetoothPeripheral(
                    address: address, advertisement: advertisement, name: device["Name"]?.string,
                    rssi: device["RSSI"]?.integer))
        }
        let added: DBusSubscription
        do {
            added = try bus.subscribe(interface: Self.objectManager, member: "InterfacesAdded") { _, arguments in
                guard arguments.count == 2, let path = arguments[0].string, path.hasPrefix(adapter + "/"),
                    let device = arguments[1].entries?[Self.deviceInterface]?.entries
                else { return }
                consider(device)
            }
        } catch {
            throw .unavailable("cannot watch BlueZ's devices: \(error)")
        }
        defer { added.cancel() }
        do {
            try await bus.call(
                Self.service, adapter, Self.adapterInterface, "SetDiscoveryFilter",
                [
                    .vardict([
                        ("UUIDs", .array(element: "s", [.string(BluetoothUUID.matterService.lowercased())])),
                        ("Transport", .string("le")), ("DuplicateData", .bool(false)),
                    ])
                ])
            try await bus.call(Self.service, adapter, Self.adapterInterface, "StartDiscovery")
        } catch {
            throw .unavailable("adapter \(adapterName) cannot discover: \(error)")
        }
        defer {
            Task { [bus] in _ = try? await bus.call(Self.service, adapter, Self.adapterInterface, "StopDiscovery") }
        }
        // Devices BlueZ already knows (it keeps what it saw recently) count too.
        if let known = try? await managedObjects() {
            for (path, interfaces) in known where path.hasPrefix(adapter + "/") {
                if let device = interfaces[Self.deviceInterface]?.entries { consider(device) }
            }
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            report.finish()
        }
        defer { timer.cancel() }
        for await peripheral in found {
            if let path = try? await devicePath(peripheral.address) { devicePaths[peripheral.address] = path }
            return peripheral
        }
        throw .notFound("no device advertising over Bluetooth LE matched within \(timeout) on adapter \(adapterName)")
    }

    /// The object path of the device with `address`.
    private func devicePath(_ address: String) async throws -> String? {
        if let known = devicePaths[address] { return known }
        let objects = try await managedObjects()
        return objects.first { $0.value[Self.deviceInterface]?.entries?["Address"]?.string == address }?.key
    }

    public func connect(
        _ peripheral: BluetoothPeripheral, transport: MatterTransport
    ) async throws(BluetoothError) -> BTPConnection {
        do {
            return try await open(peripheral, transport: transport)
        } catch let error as BluetoothError {
            throw error
        } catch {
            throw .connectionFailed("adapter \(adapterName) could not reach \(peripheral.address): \(error)")
        }
    }

    private func open(_ peripheral: BluetoothPeripheral, transport: MatterTransport) async throws -> BTPConnection {
        guard let device = try await devicePath(peripheral.address) else {
            throw BluetoothError.notFound("BlueZ no longer knows \(peripheral.address)")
        }
        // Services resolve after Connect returns; their objects appear then.
        let (resolved, resolvedReport) = AsyncStream<Void>.makeStream()
        let watch = try bus.subscribe(interface: Self.properties, member: "PropertiesChanged", pathPrefix: device) {
            path, arguments in
            guard path == device, arguments.count >= 2, arguments[0].string == Self.deviceInterface,
                arguments[1].entries?["ServicesResolved"]?.bool == true
            else { return }
            resolvedReport.yield()
        }
        defer { watch.cancel() }
        try await bus.call(Self.service, device, Self.deviceInterface, "Connect", timeout: .seconds(30))
        var objects = try await managedObjects()
        if objects[device]?[Self.deviceInterface]?.entries?["ServicesResolved"]?.bool != true {
            let waiting = Task {
                try? await Task.sleep(for: .seconds(10))
                resolvedReport.finish()
            }
            var iterator = resolved.makeAsyncIterator()
            let came = await iterator.next() != nil
            waiting.cancel()
            guard came else { throw BluetoothError.connectionFailed("\(peripheral.address)'s services never resolved") }
            objects = try await managedObjects()
        }
        guard
            let service = objects.first(where: {
                $0.key.hasPrefix(device + "/")
                    && ($0.value[Self.gattService]?.entries?["UUID"]?.string).map {
                        BluetoothUUID.same($0, BluetoothUUID.matterService)
                    } == true
            })?.key
        else {
            _ = try? await bus.call(Self.service, device, Self.deviceInterface, "Disconnect")
            throw BluetoothError.connectionFailed("\(peripheral.address) has no Matter service (0xFFF6)")
        }
        func characteristic(_ uuid: String) -> (path: String, properties: [String: DBusValue])? {
            objects.first { path, interfaces in
                path.hasPrefix(service + "/")
                    && (interfaces[Self.characteristic]?.entries?["UUID"]?.string).map { BluetoothUUID.same($0, uuid) }
                        == true
            }.map { ($0.key, $0.value[Self.characteristic]?.entries ?? [:]) }
        }
        guard let c1 = characteristic(MatterBLEAdvertisement.c1), let c2 = characteristic(MatterBLEAdvertisement.c2)
        else {
            _ = try? await bus.call(Self.service, device, Self.deviceInterface, "Disconnect")
            throw BluetoothError.connectionFailed("\(peripheral.address)'s Matter service lacks C1 or C2")
        }
        let attMTU = UInt16(clamping: c1.properties["MTU"]?.integer ?? 0)
        let connection = BluetoothConnection(id: nextConnectionNumber)
        nextConnectionNumber += 1
        let (writes, writer) = AsyncStream<[UInt8]>.makeStream()
        let bus = bus
        let btp = await BTPConnection.central(
            connection, attMTU: attMTU, transport: transport, gatt: { writer.yield($0) },
            closed: { _ in
                writer.finish()
                Task { _ = try? await bus.call(Self.service, device, Self.deviceInterface, "Disconnect") }
            })
        // C2's indications, and the device going away.
        let indications = try bus.subscribe(
            interface: Self.properties, member: "PropertiesChanged", pathPrefix: device
        ) { path, arguments in
            guard arguments.count >= 2, let changed = arguments[1].entries else { return }
            if path == c2.path, arguments[0].string == Self.characteristic, let value = changed["Value"]?.bytes {
                Task { await btp.received(value) }
            } else if path == device, arguments[0].string == Self.deviceInterface, changed["Connected"]?.bool == false {
                Task { await btp.lost("the peripheral disconnected") }
            }
        }
        Task {
            await Self.carry(writes, for: btp, bus: bus, c1: c1.path, c2: c2.path)
            indications.cancel()
        }
        do {
            try await btp.connected()
        } catch let error as BTPError {
            throw BluetoothError.transport(error)
        }
        return btp
    }

    /// The BTP packets to C1 in order, each a write request confirmed by its reply; C2's indications are switched
    /// on after the first (the capabilities request), as Matter Core §4.19.4.2 orders the handshake.
    private static func carry(
        _ writes: AsyncStream<[UInt8]>, for btp: BTPConnection, bus: DBusConnection, c1: String, c2: String
    ) async {
        var first = true
        for await packet in writes {
            do {
                try await bus.call(
                    service, c1, characteristic, "WriteValue",
                    [.bytes(packet), .vardict([("type", .string("request"))])])
                if first {
                    first = false
                    try await bus.call(service, c2, characteristic, "StartNotify")
                }
            } catch {
                await btp.lost("a GATT write failed: \(error)")
                return
            }
            await btp.packetConfirmed()
        }
    }
}
