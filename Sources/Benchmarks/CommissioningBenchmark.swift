import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterOnboarding
import MatterPlatform
import Synchronization

/// Commissions each given device into a fresh hub, timing every step and the hub's own CPU time in it (what of a
/// step's wall time is not the hub's is the device's and the network's), then pings
/// each device five times from scratch. A device with no address is found by DNS-SD on `interfaces`. Run inside a
/// namespace with the devices (scripts/bench-commission.sh).
func runCommissioningBenchmark(
    devices: [(address: SocketAddress?, code: String)], interfaces: [String], trustStorePath: String
) async throws -> Report {
    let trustStore = try PAATrustStore(directory: trustStorePath)
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("swift-home-bench-\(UUID().uuidString)")
        .path
    defer { try? FileManager.default.removeItem(atPath: state) }
    let hub = try await Hub(statePath: state)
    var stepTimes: [CommissioningStep: [Duration]] = [:]
    // Steps run one at a time, so the process's CPU time between a step's start and end is that step's.
    let stepCPU = Mutex<(startedAt: Duration, times: [CommissioningStep: [Duration]])>((.zero, [:]))
    var totals: [Duration] = []
    var cpuTimes: [Duration] = []
    var pings: [Duration] = []
    var sessions: [Duration] = []
    for device in devices {
        let payload = try SetupPayload(parsing: device.code)
        let cpuBefore = processCPUTime()
        let result = try await hub.commission(
            CommissioningRequest(
                payload: payload, address: device.address, interfaces: interfaces, trustStore: trustStore),
            name: nil,
            room: nil
        ) { progress in
            switch progress {
            case .started: stepCPU.withLock { $0.startedAt = processCPUTime() }
            case .finished(let step, _):
                stepCPU.withLock { $0.times[step, default: []].append(processCPUTime() - $0.startedAt) }
            case .note: break
            }
        }
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
    let stepCPUTimes = stepCPU.withLock { $0.times }
    for step in CommissioningStep.allCases {
        guard let times = stepTimes[step], let cpu = stepCPUTimes[step] else { continue }
        let key = String(describing: step).replacingOccurrences(of: " ", with: "_")
        report.add(
            "  \(step)", milliseconds(median(times), decimals: 2),
            key: "commission_step_ms.\(key)", value: median(times).microseconds / 1000)
        report.add(
            "    of it the hub's CPU", milliseconds(median(cpu), decimals: 2),
            key: "commission_step_cpu_ms.\(key)", value: median(cpu).microseconds / 1000)
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
