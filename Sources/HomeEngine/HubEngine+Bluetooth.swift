import BlueZ
import HomeHub
import HubWire
import MatterOnboarding
import MatterPlatform

/// How a commissioning reaches a device over Bluetooth LE: through the hub's BLE proxy clients, or a local adapter.
public enum BluetoothChoice: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The proxies connected to the hub's `/ble` (Home Assistant's, or `matter-device --ble-proxy`).
    case proxy
    /// A local adapter by its BlueZ name (hci0).
    case adapter(String)

    /// `proxy`, or an adapter's name, as `--ble` takes it.
    public init(_ text: String) {
        self = text == "proxy" ? .proxy : .adapter(text)
    }

    public var description: String {
        switch self {
        case .proxy: "the BLE proxy"
        case .adapter(let name): "adapter \(name)"
        }
    }
}

/// The centrals a hub commissions over Bluetooth LE through.
struct HubBluetooth {
    var proxy: (any BluetoothCentral)?
    /// The adapter used when a code needs Bluetooth LE and no proxy is connected.
    var defaultAdapter: String?
    /// The adapters opened so far, by name.
    var adapters: [String: any BluetoothCentral] = [:]
}

extension HubEngine {
    /// The hub's BLE proxy from now on (`home serve --listen` offers `/ble`).
    public func useBluetoothProxy(_ central: any BluetoothCentral) {
        bluetooth.withLock { $0.proxy = central }
    }

    /// The local adapter a code that needs Bluetooth LE goes through when no proxy is connected (`home serve
    /// --bluetooth-adapter hci0`).
    public func useBluetoothAdapter(_ name: String) {
        bluetooth.withLock { $0.defaultAdapter = name }
    }

    /// Whether the hub has a Bluetooth adapter to use by default.
    public var hasBluetoothAdapter: Bool { bluetooth.withLock { $0.defaultAdapter } != nil }

    /// Where a code that needs Bluetooth LE goes now, without being told: a connected proxy first, then the hub's
    /// adapter when it is there; nil when neither is.
    public var availableBluetooth: BluetoothChoice? {
        get async {
            let (proxy, adapter) = bluetooth.withLock { ($0.proxy, $0.defaultAdapter) }
            if let proxy, await proxy.isAvailable { return .proxy }
            if let adapter, let central = try? self.adapter(adapter), await central.isAvailable {
                return .adapter(adapter)
            }
            return nil
        }
    }

    /// Calls `changed` each time the hub's adapter is powered on or off, until the returned action ends the watch;
    /// nil when the hub has no adapter, or BlueZ cannot be watched (its state is then read when asked).
    public func watchBluetoothAdapter(_ changed: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        guard let name = bluetooth.withLock({ $0.defaultAdapter }),
            let central = (try? adapter(name)) as? BlueZCentral,
            let subscription = try? central.watchAvailability(changed)
        else { return nil }
        return { subscription.cancel() }
    }

    /// How a device of `payload` is reached: over Bluetooth LE when its code says it is found there and a proxy or the
    /// hub's adapter is here (it is then given the hub's Wi-Fi or Thread network); over IP otherwise, or when
    /// `networkOnly`. A code that says Bluetooth LE (or SoftAP) only, with neither here, is refused saying what is
    /// missing. One rule for every front door that adds a device by its code.
    public func bluetooth(
        for payload: SetupPayload, networkOnly: Bool = false
    ) async throws(HomeError)
        -> BluetoothChoice?
    {
        let capabilities = payload.discoveryCapabilities ?? []
        guard !networkOnly else { return nil }
        if capabilities.contains(.ble), let bluetooth = await availableBluetooth { return bluetooth }
        guard capabilities.isEmpty || capabilities.contains(.onNetwork) else {
            throw HomeError(
                .failedPrecondition,
                "the code says the device is found over Bluetooth LE (or SoftAP) only, and no Bluetooth is here: no "
                    + "BLE proxy is connected to the hub's /ble, and the hub has no adapter "
                    + (hasBluetoothAdapter ? "that BlueZ powers" : "(home serve --bluetooth-adapter)")
                    + "; connect Home Assistant's BLE proxy, or put the device on the network first")
        }
        return nil
    }

    /// The local adapter `name`, through BlueZ on the system bus (opened on first use, then kept).
    private func adapter(_ name: String) throws(HomeError) -> any BluetoothCentral {
        if let known = bluetooth.withLock({ $0.adapters[name] }) { return known }
        let bus: DBusConnection
        do {
            bus = try DBusConnection.system()
        } catch {
            throw HomeError(.unavailable, "no system D-Bus to reach BlueZ for adapter \(name): \(error)")
        }
        let central = BlueZCentral(adapter: name, bus: bus)
        return bluetooth.withLock { state in
            if let raced = state.adapters[name] { return raced }
            state.adapters[name] = central
            return central
        }
    }

    /// The central a commissioning asked for, or, asked for none and given no address, the one a payload that can
    /// only be found over Bluetooth LE needs (a connected proxy, else the hub's adapter): nil to commission over IP.
    func bluetoothCentral(
        _ choice: BluetoothChoice?, for payload: SetupPayload, addressGiven: Bool
    ) async throws(HomeError) -> (any BluetoothCentral)? {
        switch choice {
        case .proxy:
            guard let proxy = bluetooth.withLock({ $0.proxy }) else {
                throw HomeError(
                    .failedPrecondition,
                    "this hub offers no BLE proxy endpoint: run it as `home serve --listen ADDRESS`, whose /ble Home Assistant's proxies (or matter-device --ble-proxy) connect to"
                )
            }
            return proxy
        case .adapter(let name):
            return try adapter(name)
        case nil:
            // A QR code that says the device is found over BLE and not on IP (a manual code says nothing) goes over
            // Bluetooth; an address given says it is on IP after all.
            guard !addressGiven, let capabilities = payload.discoveryCapabilities, capabilities.contains(.ble),
                !capabilities.contains(.onNetwork)
            else { return nil }
            if let available = await availableBluetooth {
                return try await bluetoothCentral(available, for: payload, addressGiven: false)
            }
            // Neither is there now: the proxy endpoint says no proxy is connected, the adapter what is wrong with it.
            if let proxy = bluetooth.withLock({ $0.proxy }) { return proxy }
            if let adapter = bluetooth.withLock({ $0.defaultAdapter }) { return try self.adapter(adapter) }
            throw HomeError(
                .failedPrecondition,
                "the code says the device is found over Bluetooth LE only, and this hub has no Bluetooth: run it as `home serve --listen ADDRESS` for Home Assistant's BLE proxies, or `home serve --bluetooth-adapter hci0`, or give --ble; or give the device's address if it is on the network already"
            )
        }
    }
}

extension HubEngine {
    /// The Wi-Fi credentials and Thread dataset the hub holds (`home network`) under these IDs (nil: "default"), for
    /// the network setup of a device reached over Bluetooth LE (one already on IP is left on the network it is on). An
    /// ID asked for by name that holds nothing is an error, not a device given no network.
    func networksForNewDevices(
        wifiID: String? = nil, threadID: String? = nil
    ) async throws(HomeError)
        -> [NetworkCredentials]
    {
        let (wifi, thread): (NetworkCredentials?, NetworkCredentials?)
        do {
            (wifi, thread) = try await store.networkCredentials(
                wifiID: wifiID ?? HubStore.defaultCredentialsID, threadID: threadID ?? HubStore.defaultCredentialsID)
        } catch {
            throw HomeError(error)
        }
        if let wifiID, wifi == nil {
            throw HomeError(.notFound, "no Wi-Fi credentials are stored under \"\(wifiID)\" (home network)")
        }
        if let threadID, thread == nil {
            throw HomeError(.notFound, "no Thread dataset is stored under \"\(threadID)\" (home network)")
        }
        return [wifi, thread].compactMap { $0 }
    }
}
