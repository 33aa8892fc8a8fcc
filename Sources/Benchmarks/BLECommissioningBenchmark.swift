import BLEProxy
import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterPlatform

/// A device fresh from its box commissioned over Bluetooth LE through the BLE proxy protocol, `rounds` times (a new
/// device and hub each): the hub's `BLEProxyCentral` and the device's proxy client in one process joined by a pipe
/// (no socket: the WebSocket's own cost is left out), the device on loopback once it joined its Wi-Fi, found at its
/// port as its operational record would say (no mDNS). Every step's median, and the whole.
func runBLECommissioningBenchmark(rounds: Int) async throws -> Report {
    var stepTimes: [CommissioningStep: [Duration]] = [:]
    var totals: [Duration] = []
    let wifi = NetworkCredentials.wifi(ssid: Array("bench".utf8), credentials: Array("bench-passphrase".utf8))
    for round in 0..<rounds {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-home-bench-ble-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = DeviceStore(directory: directory + "/device")
        let state = try store.loadOrCreate(
            DeviceSettings(kind: .light, passcode: 20_202_021, discriminator: UInt16(round % 4096), iterations: 1000))
        let device = try VirtualDevice(
            store: store, state: state, port: 0, radio: .wifi([.init(ssid: "bench", passphrase: "bench-passphrase")]),
            freshFromItsBox: true)
        try await device.start()
        let hub = try await Hub(statePath: directory + "/hub")
        let central = BLEProxyCentral(clock: SystemClock())
        let pipe = await BLEProxyPipe(central: central) { send in await device.bluetoothPeripheral(send: send) }
        hub.resolveOperationalRecords { _, _ in
            await device.isOnIP ? [.ipv4(IPv4Address(127 << 24 | 1), port: device.port)] : []
        }
        let request = CommissioningRequest(
            payload: device.setupPayload,
            trustStore: PAATrustStore(certificates: [try X509Certificate(derEncoded: device.attestation.paa)]),
            networks: [wifi], bluetooth: central)
        let result = try await hub.commission(request, name: nil, room: nil) { _ in }
        totals.append(result.elapsed)
        for (step, duration) in result.stepDurations { stepTimes[step, default: []].append(duration) }
        _ = pipe
        await hub.close()
        await device.shutdown()
    }
    var report = Report()
    for step in CommissioningStep.allCases {
        guard let times = stepTimes[step] else { continue }
        let key = String(describing: step).replacingOccurrences(of: " ", with: "_")
        report.add(
            "  \(step)", milliseconds(times.sorted()[times.count / 2], decimals: 2),
            key: "ble_commission_step_ms.\(key)", value: times.sorted()[times.count / 2].microseconds / 1000)
    }
    let total = totals.sorted()[totals.count / 2]
    report.add(
        "Commissioning over BLE through the proxy, whole (median of \(rounds))", milliseconds(total, decimals: 2),
        key: "ble_commission_ms", value: total.microseconds / 1000)
    return report
}
