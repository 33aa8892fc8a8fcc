import Foundation
import HomeAPI
import HomeHub

/// `Home.devices().list()` over a store of 10,000 devices (2,500 nodes of four lights each), in a temporary state directory.
func runHomeQueryBenchmark() async throws -> Report {
    let nodes = 2_500
    let directory = NSTemporaryDirectory() + "/swift-home-bench-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try HubStore(directory: StateDirectory(creating: directory))
    for index in 1...nodes {
        let nodeID = UInt64(index)
        try store.beginCommissioning(
            nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8000,
            attestation: NodeRecord.Attestation(verdict: "benchmark", trusted: true))
        try store.setEndpoints(
            (1...4).map { EndpointDeviceType(endpoint: $0, deviceType: 0x0100, revision: 3) }, of: nodeID)
        try store.markCommissioned(nodeID)
        try store.addDevices(of: nodeID, named: "Light \(index)", inRoom: index.isMultiple(of: 2) ? "Hall" : nil)
    }
    let home = try await Home.connect(stateDirectory: directory)
    let clock = ContinuousClock()
    var count = try await home.devices().list().count  // warm-up
    var samples: [Duration] = []
    for _ in 0..<5 {
        let start = clock.now
        count = try await home.devices().list().count
        samples.append(clock.now - start)
    }
    samples.sort()
    var report = Report()
    report.add(
        "Home devices().list(), \(count) devices",
        "\(format(samples[samples.count / 2].seconds * 1000, decimals: 1)) ms",
        key: "home_list_10000_devices_ms", value: samples[samples.count / 2].seconds * 1000)
    return report
}
