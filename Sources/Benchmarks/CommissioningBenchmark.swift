import Foundation
import HomeHub
import MatterCertificates
import MatterOnboarding
import MatterPlatform

/// Commissions each given device into a fresh hub, timing every step and the hub's own CPU time, then pings
/// each device five times from scratch. Run inside a namespace with the devices (scripts/bench-commission.sh).
func runCommissioningBenchmark(
    devices: [(address: SocketAddress, code: String)], trustStorePath: String
) async throws -> Report {
    let trustStore = try PAATrustStore(directory: trustStorePath)
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("swift-home-bench-\(UUID().uuidString)")
        .path
    defer { try? FileManager.default.removeItem(atPath: state) }
    let hub = try await Hub(statePath: state)
    var stepTimes: [CommissioningStep: [Duration]] = [:]
    var totals: [Duration] = []
    var cpuTimes: [Duration] = []
    var pings: [Duration] = []
    var sessions: [Duration] = []
    for device in devices {
        let payload = try SetupPayload(parsing: device.code)
        let cpuBefore = processCPUTime()
        let result = try await hub.commission(
            CommissioningRequest(payload: payload, address: device.address, trustStore: trustStore), name: nil,
            room: nil
        ) { _ in }
        cpuTimes.append(processCPUTime() - cpuBefore)
        totals.append(result.elapsed)
        for (step, duration) in result.stepDurations { stepTimes[step, default: []].append(duration) }
        let record = try await hub.device(named: result.devices[0].description)
        for _ in 0..<5 {
            let ping = try await hub.ping(record, interfaces: [])
            pings.append(contentsOf: ping.roundTrips)
            sessions.append(ping.sessionEstablishment)
        }
    }
    var report = Report()
    for step in CommissioningStep.allCases {
        guard let times = stepTimes[step] else { continue }
        report.add(
            "  \(step)", milliseconds(median(times), decimals: 2),
            key: "commission_step_ms.\(String(describing: step).replacingOccurrences(of: " ", with: "_"))",
            value: median(times).microseconds / 1000)
    }
    report.add(
        "Commissioning, whole (median of \(devices.count))", milliseconds(median(totals), decimals: 2),
        key: "commission_ms",
        value: median(totals).microseconds / 1000)
    report.add(
        "Hub CPU time per commissioning (median)", milliseconds(median(cpuTimes), decimals: 2),
        key: "commission_cpu_ms",
        value: median(cpuTimes).microseconds / 1000)
    report.add(
        "home ping: CASE from scratch (median of \(sessions.count))", milliseconds(median(sessions), decimals: 2),
        key: "case_session_ms", value: median(sessions).microseconds / 1000)
    report.add(
        "home ping: VendorName read round trip (median of \(pings.count))", milliseconds(median(pings), decimals: 2),
        key: "read_rtt_us_p50", value: median(pings).microseconds)
    return report
}

private func median(_ values: [Duration]) -> Duration {
    values.sorted()[values.count / 2]
}
