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

extension HubEngine {
    /// The hub's BLE proxy from now on (`home serve --listen` offers `/ble`).
    public func useBluetoothProxy(_ central: any BluetoothCentral) {
        bluetoothProxy.withLock { $0 = central }
    }

    /// Whether a BLE proxy endpoint is offered.
    public var offersBluetoothProxy: Bool { bluetoothProxy.withLock { $0 } != nil }

    /// Whether a BLE proxy client is connected now.
    public var bluetoothProxyConnected: Bool {
        get async { await bluetoothProxy.withLock { $0 }?.isAvailable ?? false }
    }

    /// The central a commissioning asked for, or, asked for none, the one a payload that can only be found over
    /// Bluetooth LE needs: nil to commission over IP.
    func bluetoothCentral(
        _ choice: BluetoothChoice?, for payload: SetupPayload
    ) throws(HomeError) -> (any BluetoothCentral)? {
        let proxy = bluetoothProxy.withLock { $0 }
        switch choice {
        case .proxy:
            guard let proxy else {
                throw HomeError(
                    .failedPrecondition,
                    "this hub offers no BLE proxy endpoint: run it as `home serve --listen ADDRESS`, whose /ble Home Assistant's proxies (or matter-device --ble-proxy) connect to"
                )
            }
            return proxy
        case .adapter(let name):
            throw HomeError(
                .unimplemented,
                "a local Bluetooth adapter (\(name)) through BlueZ is not built yet: use --ble proxy, through Home Assistant's Bluetooth proxies or matter-device --ble-proxy"
            )
        case nil:
            // A QR code that says the device is found over BLE and not on IP (a manual code says nothing) goes over
            // the proxy when there is one.
            guard let capabilities = payload.discoveryCapabilities, capabilities.contains(.ble),
                !capabilities.contains(.onNetwork), let proxy
            else { return nil }
            return proxy
        }
    }
}

extension HubEngine {
    /// The Wi-Fi credentials and Thread dataset the hub holds (`home network`), for a device's network setup.
    func networksForNewDevices() async throws(HomeError) -> [NetworkCredentials] {
        do {
            let (wifi, thread) = try await store.networkCredentials()
            return [wifi, thread].compactMap { $0 }
        } catch {
            throw HomeError(error)
        }
    }
}
