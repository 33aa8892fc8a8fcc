import BLEProxy
import Foundation
import HomeAPI
import HomeEngine
import MatterDevice
import MatterDiscovery
import MatterPlatform

/// `home demo`: the whole system with no hardware. Six virtual devices start in this process on loopback (no mDNS), one
/// of them fresh from its box, on Bluetooth LE only; each is added through the Home API's add-device flow (that one
/// over an in-process BLE proxy, given the home's Wi-Fi), then the demo lists them, switches and dims the lights,
/// renames one, watches a sensor drift, and has the bridge add a bridged light that appears live, printing one line
/// per step with its duration.
enum DemoCommand {
    /// A device of the demo: its kind, and the name and room the add-device flow gives it.
    struct DemoDevice: Sendable {
        let kind: DeviceKind
        let name: String
        let room: String
        /// On no network until given the demo's Wi-Fi: reached over Bluetooth LE.
        var freshFromItsBox = false
    }

    static let devices = [
        DemoDevice(kind: .light, name: "Kitchen light", room: "Kitchen"),
        DemoDevice(kind: .dimmableLight, name: "Living room lamp", room: "Living room"),
        DemoDevice(kind: .temperatureSensor, name: "Bedroom sensor", room: "Bedroom"),
        DemoDevice(kind: .switchPanel, name: "Hall switches", room: "Hall"),
        DemoDevice(kind: .bridge, name: "Garage bridge", room: "Garage"),
        DemoDevice(kind: .contactSensor, name: "Porch door", room: "Porch", freshFromItsBox: true),
    ]

    /// The Wi-Fi network the hub gives the device fresh from its box, and the one its simulated radio finds.
    static let wifi = (ssid: "demo-home", passphrase: "demo-passphrase")

    /// Longer than the 60 Unicode code points a name keeps, to show the cut.
    static let longName = "Living room lamp by the big window, next to the bookshelf, on the left side"
    /// The level the dimmable light is dimmed to (of 254, about half).
    static let dimLevel: UInt8 = 127
    /// How many temperatures the demo watches the sensor drift through.
    static let watchedTemperatures = 3
    /// What the bridge calls the bridged light it adds while the demo watches.
    static let bridgedLabel = "Shed light"

    static let demo = CommandSpec(
        name: "demo",
        summary:
            "Run the whole system with no hardware: virtual devices on loopback, added, listed, switched, renamed and watched.",
        options: [
            .init(
                name: "keep", valueName: "DIR",
                help: "Keep the hub's and the devices' state in DIR (default: a temporary directory, removed).")
        ],
        run: { arguments throws(CommandLineError) in
            let kept = arguments.values["keep"]
            let directory: String
            do {
                if let kept {
                    try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
                    directory = kept
                } else {
                    directory = try temporaryDirectory()
                }
            } catch {
                throw .failed("cannot create the demo's state directory: \(error)")
            }
            defer { if kept == nil { try? FileManager.default.removeItem(atPath: directory) } }
            do throws(DemoTranscript.Failure) {
                try await run(in: directory, transcript: DemoTranscript(output: arguments.output))
            } catch {
                return CommandOutput(
                    exitCode: 1, standardOutput: "", standardError: "error: home demo failed at \(error)\n")
            }
            return .success(kept.map { "The hub's and the devices' state is in \($0).\n" } ?? "")
        }
    )

    private static func run(in directory: String, transcript: DemoTranscript) async throws(DemoTranscript.Failure) {
        let started = try await transcript.step("starting the devices") {
            () async throws -> ([VirtualDevice], String) in
            let fresh = devices.filter(\.freshFromItsBox).map(\.name).joined(separator: ", ")
            return (
                try await startDevices(in: directory),
                "started \(devices.count) virtual devices on 127.0.0.1, no mDNS (\(fresh) fresh from its box, "
                    + "on Bluetooth LE only)"
            )
        }
        let home: Home
        do throws(DemoTranscript.Failure) {
            home = try await transcript.step("opening the hub") { () async throws -> (Home, String) in
                let configuration = Home.Configuration(
                    stateDirectory: directory + "/hub", networkInterfaces: [], paaTrustStore: directory + "/paa")
                return (try await Home.connect(configuration), "opened a new hub")
            }
        } catch {
            for device in started { await device.shutdown() }
            throw error
        }
        var failure: DemoTranscript.Failure?
        do throws(DemoTranscript.Failure) {
            try await exercise(home, devices: started, transcript: transcript)
        } catch {
            failure = error
        }
        try await transcript.step("shutting down") { () async throws -> (Void, String) in
            await home.disconnect()
            for device in started { await device.shutdown() }
            return ((), "shut down the hub and \(started.count) devices")
        }
        if let failure { throw failure }
    }

    private static func exercise(
        _ home: Home, devices started: [VirtualDevice], transcript: DemoTranscript
    ) async throws(DemoTranscript.Failure) {
        let bluetooth = try await transcript.step("giving the hub Wi-Fi and a BLE proxy") {
            () async throws -> ([BLEProxyPipe], String) in
            let pipes = try await prepareBluetooth(home, zip(devices, started).filter(\.0.freshFromItsBox).map(\.1))
            return (
                pipes,
                "the hub holds Wi-Fi \"\(wifi.ssid)\" (home network) and hears \(pipes.count) device over an "
                    + "in-process BLE proxy"
            )
        }
        for (demoDevice, device) in zip(devices, started) {
            try await transcript.step("adding \(demoDevice.name)") { () async throws -> (Void, String) in
                let added = try await add(device, as: demoDevice, to: home)
                let parts = added == 1 ? "" : ", \(added) devices"
                let how =
                    demoDevice.freshFromItsBox
                    ? " over Bluetooth LE: given Wi-Fi \"\(wifi.ssid)\", it joined and was found on IP" : ""
                return ((), "added \(demoDevice.name) (\(demoDevice.kind.rawValue)\(parts))\(how)")
            }
        }
        _ = bluetooth
        let typeNames = try await transcript.step("following the devices live") {
            () async throws -> ([String: String], String) in
            let names = try await followAll(home)
            return (names, "followed \(names.count) devices live, all online")
        }
        let table = try await transcript.step("listing the devices") { () async throws -> (String, String) in
            let (table, count) = try await deviceTable(home, typeNames: typeNames)
            return (table, "listed \(count) devices with their types, rooms and connectivity")
        }
        transcript.detail(table)
        try await transcript.step("Hall switches as one multipart device") { () async throws -> (Void, String) in
            // With multipart devices on, the panel is one device (its ID is its node's) whose buttons are its parts.
            let node = try await named("Hall switches 1", in: home).id.split(separator: "-")[0]
            guard
                let panel = try await home.devices(enableMultipartDevices: true).list().first(where: { $0.id == node })
            else {
                throw HomeError(.notFound, "no multipart device for node \(node)")
            }
            let buttons = try await panel.types.getAll(of: GenericSwitchDeviceType.self)
            let tags = buttons.map { $0.metadata.semanticTags.map(\.description).joined(separator: " ") }
            return (
                (),
                "Hall switches as one multipart device: \(buttons.count) Generic Switch parts tagged "
                    + tags.joined(separator: ", ") + " (types.getAll, metadata.semanticTags)"
            )
        }
        try await transcript.step("switching on Kitchen light") { () async throws -> (Void, String) in
            let light = try await named("Kitchen light", in: home)
            guard let onOff = await light.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait else {
                throw HomeError(.notFound, "Kitchen light has no On/Off trait")
            }
            try await onOff.on()
            try await waitFor(light, OnOffLightDeviceType.self) { $0.matterTraits.onOffTrait?.attributes.onOff == true }
            return ((), "switched on Kitchen light (OnOffTrait.on, the device reports on)")
        }
        try await transcript.step("dimming Living room lamp") { () async throws -> (Void, String) in
            let lamp = try await named("Living room lamp", in: home)
            guard let level = await lamp.types.get(DimmableLightDeviceType.self)?.matterTraits.levelControlTrait else {
                throw HomeError(.notFound, "Living room lamp has no Level Control trait")
            }
            try await level.moveToLevelWithOnOff(
                level: dimLevel, transitionTime: .value(0), optionsMask: [], optionsOverride: [])
            try await waitFor(lamp, DimmableLightDeviceType.self) {
                $0.matterTraits.levelControlTrait?.attributes.currentLevel == .value(dimLevel)
            }
            return ((), "dimmed Living room lamp to level \(dimLevel) of 254 (LevelControlTrait.moveToLevelWithOnOff)")
        }
        try await transcript.step("renaming Living room lamp") { () async throws -> (Void, String) in
            let renamed = try await named("Living room lamp", in: home).setName(longName)
            return (
                (),
                "renamed Living room lamp: \(longName.unicodeScalars.count) code points asked, "
                    + "\(renamed.name.unicodeScalars.count) kept: \"\(renamed.name)\""
            )
        }
        try await transcript.step("watching Bedroom sensor") { () async throws -> (Void, String) in
            let temperatures = try await watchTemperatures(try await named("Bedroom sensor", in: home))
            return ((), "watched Bedroom sensor drift: " + temperatures.map(celsius).joined(separator: " → "))
        }
        try await transcript.step("Garage bridge adding a bridged light") { () async throws -> (Void, String) in
            guard let bridge = zip(devices, started).first(where: { $0.0.kind == .bridge })?.1 else {
                throw HomeError(.notFound, "the demo has no bridge")
            }
            let endpoint = try await bridge.addBridgedDevice(label: bridgedLabel)
            let added = try await appearing(bridgedLabel, in: home)
            return (
                (),
                "Garage bridge added a bridged light on endpoint \(endpoint): it appears live as \(added.name), in no room "
                    + "(home.devices().batched())"
            )
        }
    }

    // MARK: Steps

    /// Starts each demo device on an ephemeral loopback port, with its own state directory, and writes its
    /// development PAA into the trust store.
    private static func startDevices(in directory: String) async throws -> [VirtualDevice] {
        try FileManager.default.createDirectory(atPath: directory + "/paa", withIntermediateDirectories: true)
        var started: [VirtualDevice] = []
        do {
            for demoDevice in devices {
                let store = DeviceStore(directory: directory + "/devices/" + demoDevice.kind.rawValue)
                let state = try store.loadOrCreate(DeviceSettings(kind: demoDevice.kind))
                let device = try VirtualDevice(
                    store: store, state: state, port: 0,
                    simulation: Simulation(interval: CommandLineTiming.demoSimulationStep),
                    radio: demoDevice.freshFromItsBox
                        ? .wifi([.init(ssid: wifi.ssid, passphrase: wifi.passphrase)]) : nil,
                    freshFromItsBox: demoDevice.freshFromItsBox)
                try await device.start()
                started.append(device)
                try Data(device.attestation.paa).write(
                    to: URL(fileURLWithPath: directory + "/paa/\(demoDevice.kind.rawValue).der"))
            }
        } catch {
            for device in started { await device.shutdown() }
            throw error
        }
        return started
    }

    /// The Home API's add-device flow for one device: prepare, perform in this process, complete (or cancel on error).
    /// Returns how many devices (endpoints) it added.
    private static func add(_ device: VirtualDevice, as demoDevice: DemoDevice, to home: Home) async throws -> Int {
        guard let structure = try await home.structures().list().first else {
            throw HomeError(.notFound, "the hub has no structure")
        }
        let request = MatterAddDeviceRequest(
            topology: .init(ecosystemName: "swift-home demo", homes: [.init(displayName: structure.name)]))
        // A device on the network is reached at its address; one fresh from its box is found over Bluetooth LE.
        let handler =
            demoDevice.freshFromItsBox
            ? HomeMatterCommissioner(home: home)
            : HomeMatterCommissioner(home: home, deviceAddress: .ipv4(IPv4Address(127 << 24 | 1), port: device.port))
        let interaction = DemoInteraction(
            payload: try device.setupPayload.qrCode(), room: demoDevice.room, name: demoDevice.name)
        try await structure.prepareForMatterCommissioning()
        do {
            try await request.perform(handler: handler, interaction: interaction)
            return try structure.completeMatterCommissioning().count
        } catch {
            structure.cancelMatterCommissioning()
            throw error
        }
    }

    /// The hub given the demo's Wi-Fi and a BLE proxy, and each device fresh from its box connected to it as the proxy
    /// client that owns it; with no mDNS here, the hub finds a device that joined the Wi-Fi at its loopback port, as
    /// its operational record would say. The pipes live as long as the demo.
    private static func prepareBluetooth(_ home: Home, _ fresh: [VirtualDevice]) async throws -> [BLEProxyPipe] {
        guard let engine = home.hub.engine else {
            throw HomeError(.failedPrecondition, "the demo's hub is not embedded")
        }
        _ = try await home.hub.perform(
            SetNetworkCredentials(wifiSSID: wifi.ssid, passphrase: Array(wifi.passphrase.utf8)))
        let central = BLEProxyCentral(clock: SystemClock())
        engine.useBluetoothProxy(central)
        engine.hub.resolveOperationalRecords { _, _ in
            var addresses: [SocketAddress] = []
            for device in fresh where await device.isOnIP {
                addresses.append(.ipv4(IPv4Address(127 << 24 | 1), port: device.port))
            }
            return addresses
        }
        var pipes: [BLEProxyPipe] = []
        for device in fresh {
            pipes.append(await BLEProxyPipe(central: central) { send in await device.bluetoothPeripheral(send: send) })
        }
        return pipes
    }

    /// Starts following every device live and waits until all are online; returns each device's type names by ID.
    private static func followAll(_ home: Home) async throws -> [String: String] {
        var names: [String: String] = [:]
        for device in try await home.devices().list() {
            for try await collection in device.types.subscribeAll() {
                // The device's own types; the Root Node that every device of a node shares is left out of the table.
                names[device.id] = collection.deviceTypeIDs.filter { $0 != RootNodeDeviceType.matterDeviceTypeID }
                    .map { DeviceTypeNames.name($0.rawValue) }.joined(separator: ", ")
                break
            }
        }
        for try await devices in home.devices().batched()
        where devices.allSatisfy({ $0.sourceConnectivity.connectivityState == .online }) {
            break
        }
        return names
    }

    /// The device list as a table (name, types, room, connectivity), sorted by name, and how many devices it has.
    private static func deviceTable(_ home: Home, typeNames: [String: String]) async throws -> (String, Int) {
        let rooms = Dictionary(
            try await home.rooms().list().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let list = try await home.devices().list().sorted {
            $0.name.localizedStandardCompare($1.name) == .orderedAscending
        }
        let rows = list.map { device in
            [
                device.name, typeNames[device.id] ?? "?", device.roomID.flatMap { rooms[$0] } ?? "-",
                describe(device.sourceConnectivity.connectivityState),
            ]
        }
        return (TextTable.render(header: ["NAME", "TYPES", "ROOM", "CONNECTIVITY"], rows: rows), list.count)
    }

    /// The first three different temperatures the sensor reports, in hundredths of a degree Celsius.
    private static func watchTemperatures(_ sensor: HomeDevice) async throws -> [Int16] {
        var seen: [Int16] = []
        for try await value in sensor.types.subscribe(TemperatureSensorDeviceType.self) {
            guard
                case .value(let temperature)? = value.matterTraits.temperatureMeasurementTrait?.attributes.measuredValue,
                temperature != seen.last
            else { continue }
            seen.append(temperature)
            if seen.count == watchedTemperatures { return seen }
        }
        throw HomeError(.unavailable, "Bedroom sensor stopped reporting after \(seen.count) temperatures")
    }

    // MARK: Helpers

    private static func named(_ name: String, in home: Home) async throws -> HomeDevice {
        guard let device = try await home.devices().list().first(where: { $0.name == name }) else {
            throw HomeError(.notFound, "no device named \"\(name)\"")
        }
        return device
    }

    /// Waits until the live device list has a device called `name`.
    private static func appearing(_ name: String, in home: Home) async throws -> HomeDevice {
        for try await devices in home.devices().batched() {
            if let device = devices.first(where: { $0.name == name }) { return device }
        }
        throw HomeError(.unavailable, "the device list ended before \(name) appeared")
    }

    /// Waits until the device reports a value of `type` that satisfies `condition`.
    private static func waitFor<T: DeviceType>(
        _ device: HomeDevice, _ type: T.Type, until condition: (T) -> Bool
    ) async throws {
        for try await value in device.types.subscribe(type) where condition(value) { return }
        throw HomeError(.unavailable, "\(device.name) went away")
    }

    /// "21.25 °C" from hundredths of a degree.
    private static func celsius(_ hundredths: Int16) -> String {
        let magnitude = abs(Int(hundredths))
        return (hundredths < 0 ? "-" : "")
            + "\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100) °C"
    }

    private static func describe(_ state: SourceConnectivity.ConnectivityState) -> String {
        switch state {
        case .online: "online"
        case .offline: "offline"
        case .partiallyOnline: "partially online"
        case .asleep: "asleep"
        case .unknown: "unknown"
        }
    }

    /// A fresh owner-only directory under the system's temporary directory.
    private static func temporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/swift-home-demo-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
        return String(cString: created)
    }
}
