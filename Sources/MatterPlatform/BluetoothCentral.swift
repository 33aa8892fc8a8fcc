import MatterBTP

/// A way to reach Bluetooth LE peripherals as the central (the commissioner's side): a local adapter through BlueZ, or
/// Home Assistant's Bluetooth proxies through the hub's `/ble`. The commissioner finds the device of an onboarding
/// payload by its advertisement, connects, and speaks BTP to it over the Matter service's C1 and C2 (Matter Core
/// §4.18, §5.4.2.5.6).
public protocol BluetoothCentral: Sendable {
    /// Names the backend in the transcript and in errors: "the BLE proxy", "adapter hci0".
    var name: String { get }

    /// Whether it has a radio now (an adapter powered, a proxy connected).
    var isAvailable: Bool { get async }

    /// Scans for a commissionable Matter device whose advertisement `matches`, and returns the first found; throws
    /// `BluetoothError.notFound` when none is within `timeout`, `.unavailable` when the backend has no radio.
    func find(
        matching: @escaping @Sendable (MatterBLEAdvertisement) -> Bool, timeout: Duration
    ) async throws(BluetoothError) -> BluetoothPeripheral

    /// Connects to `peripheral`, opens its Matter service and carries BTP for `transport` over it, returning once the
    /// BTP handshake is done. The connection ends when either side closes it.
    func connect(
        _ peripheral: BluetoothPeripheral, transport: MatterTransport
    ) async throws(BluetoothError) -> BTPConnection
}

/// A device found advertising the Matter service: its address (as the backend names it) and its service data.
public struct BluetoothPeripheral: Sendable, Hashable, CustomStringConvertible {
    public let address: String
    public let advertisement: MatterBLEAdvertisement
    /// Its local name, when it advertises one.
    public let name: String?
    /// Signal strength in dBm, when known.
    public let rssi: Int?

    public init(address: String, advertisement: MatterBLEAdvertisement, name: String? = nil, rssi: Int? = nil) {
        self.address = address
        self.advertisement = advertisement
        self.name = name
        self.rssi = rssi
    }

    public var description: String {
        "\(address) (discriminator \(advertisement.discriminator), vendor 0x\(String(advertisement.vendorID, radix: 16, uppercase: true)))"
    }
}

/// Why Bluetooth LE could not reach a device, in words a user can act on.
public enum BluetoothError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No radio: no adapter, or no proxy connected.
    case unavailable(String)
    /// Nothing advertising what was looked for, within the time given.
    case notFound(String)
    /// The peripheral could not be connected, or its Matter service could not be opened.
    case connectionFailed(String)
    /// BTP over the connection failed (its handshake, or later).
    case transport(BTPError)
    /// The peripheral or the backend went away.
    case disconnected(String)

    public var description: String {
        switch self {
        case .unavailable(let reason), .notFound(let reason), .connectionFailed(let reason),
            .disconnected(let reason):
            reason
        case .transport(let error): "BTP failed: \(error)"
        }
    }
}

/// Bluetooth's fixed numbers for Matter (Matter Core §4.18.2 and the Bluetooth SIG's base UUID).
public enum BluetoothUUID {
    /// The Bluetooth base UUID's tail after a 16- or 32-bit UUID.
    static let baseTail = "-0000-1000-8000-00805F9B34FB"

    /// The canonical form of `uuid` for comparing: 128 bits, upper case, with dashes. Backends name UUIDs in any of the
    /// short (`fff6`), compact (32 hex digits) and dashed forms, in either case.
    public static func canonical(_ uuid: String) -> String {
        let upper = uuid.uppercased()
        let hex = upper.filter(\.isHexDigit)
        switch (upper.count, hex.count) {
        case (4, 4): return "0000" + upper + baseTail
        case (8, 8): return upper + baseTail
        case (32, 32):
            let digits = Array(upper)
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
        default: return upper
        }
    }

    /// The Matter service, 0xFFF6.
    public static let matterService = canonical("fff6")

    /// Whether two UUIDs, in any form, are the same.
    public static func same(_ first: String, _ second: String) -> Bool {
        canonical(first) == canonical(second)
    }
}
