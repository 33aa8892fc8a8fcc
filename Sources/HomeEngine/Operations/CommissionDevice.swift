import Foundation
import HubWire
import MatterPlatform

/// `home commission`: a device onto the fabric outside an add-device session, named and placed as asked, its progress
/// told step by step (`HubProgress`). A device an earlier, interrupted commissioning left on the fabric is finished
/// first.
public struct CommissionDevice: HubOperation {
    public static let name = "commissionDevice"
    public let payload: String
    public let address: SocketAddress?
    public let interfaces: [String]
    /// The trusted PAA certificates' directory; nil: none trusted (with `acceptUntrustedDevice`).
    public let paaTrustStore: String?
    public let acceptUntrustedDevice: Bool
    public var deviceName: String?
    public var room: String?
    /// Over Bluetooth LE through this (`--ble proxy`); nil: over IP, or over the proxy when only BLE finds the device.
    public var bluetooth: BluetoothChoice?
    /// The device scans for the network it is to be given first, so one it cannot see fails early.
    public var scanNetworks: Bool
    /// Which stored Wi-Fi network and Thread dataset a device reached over Bluetooth LE is given (`home network`'s
    /// IDs); nil: the "default" ones.
    public var wifiCredentialsID: String?
    public var threadDatasetID: String?

    public init(
        payload: String, address: SocketAddress?, interfaces: [String], paaTrustStore: String?,
        acceptUntrustedDevice: Bool, name: String?, room: String?, bluetooth: BluetoothChoice? = nil,
        scanNetworks: Bool = false
    ) {
        self.bluetooth = bluetooth
        self.scanNetworks = scanNetworks
        self.payload = payload
        self.address = address
        self.interfaces = interfaces
        self.paaTrustStore = paaTrustStore
        self.acceptUntrustedDevice = acceptUntrustedDevice
        self.deviceName = name
        self.room = room
    }

    /// Devices are added to the default structure.
    public var access: HubAccess { .right(.devices, structureID: nil) }
    public var summary: String { "commission a device" }

    /// Beyond the devices right: a device another caller adds is checked against the hub's own trust store, and
    /// one that fails attestation is the owner's alone to accept (a device added over Bluetooth LE is given the home's
    /// network secrets).
    public func run(in scope: HubOperationScope) async throws(HomeError) -> CommissionedDevice {
        let engine = scope.engine
        if try !engine.isOwner(scope.caller) {
            guard !acceptUntrustedDevice else {
                throw HomeError(.permissionDenied, "only the hub's owner may add a device that fails attestation")
            }
            let hubs = engine.commissioning.paaTrustStore
            if let given = paaTrustStore,
                URL(fileURLWithPath: given).standardizedFileURL != URL(fileURLWithPath: hubs).standardizedFileURL
            {
                throw HomeError(
                    .permissionDenied,
                    "only the hub's owner may choose the PAA trust store: others' devices are checked against the "
                        + "hub's, \(hubs)")
            }
        }
        return try await engine.commission(self, progress: scope.progress)
    }
}
