import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterPlatform
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// Fifty nodes on one hub, kept short: a farm of every kind on loopback, all commissioned at once through the hub
/// (which runs `Hub.concurrentCommissionings` side by side), followed live; after the farm stops and starts again on its state, no node is left offline.
/// (`swift-home-bench scale` runs the same at 1,000 with figures.)
@Suite(.serialized) struct ScaleTests {
    static let nodes = 50

    @Test func fiftyNodesComeOnlineAndNoneIsLeftOfflineAfterTheFarmRestarts() async throws {
        try await withTemporaryDirectory { directory in
            let farmDirectory = directory + "/farm"
            // Quiet devices: what is measured is the connections, not sensor drift.
            let quiet = Simulation(interval: .seconds(3600))
            // Below Linux's ephemeral range (32768–60999): the farm restarts on the same ports, and one the kernel
            // handed out could meanwhile be any other test's client socket. Offset at random, so two runs on one
            // machine rarely meet; below DeviceFarmTests' farm (27,500 and up), which may run at the same time.
            let base = UInt16.random(in: 22_000...(27_000 - UInt16(Self.nodes)))
            let farm = try DeviceFarm.open(
                directory: farmDirectory, ports: Array(base..<(base + UInt16(Self.nodes))), kinds: .mix,
                simulation: quiet)
            try await farm.start()
            let trustStore = PAATrustStore(certificates: [
                try X509Certificate(derEncoded: farm.devices[0].attestation.paa)
            ])
            let hub = try await Hub(statePath: directory + "/hub")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, device) in farm.devices.enumerated() {
                    group.addTask {
                        _ = try await hub.commission(
                            CommissioningRequest(
                                payload: device.setupPayload,
                                address: .ipv4(IPv4Address(127 << 24 | 1), port: device.port), trustStore: trustStore),
                            name: "farm \(index)", room: nil, progress: { _ in })
                    }
                }
                try await group.waitForAll()
            }
            #expect(Set(try await hub.store.nodes().map(\.nodeID)).count == Self.nodes)

            var configuration = Home.Configuration(stateDirectory: directory + "/hub", networkInterfaces: [])
            configuration.liveness = .seconds(2)
            let home = try await Home.open(statePath: directory + "/hub", configuration: configuration)
            try await home.hub.followEveryNode()
            let model = home.context.model
            #expect(await nodes(of: model, within: .seconds(60)) { $0 == .online } == Self.nodes)

            // The farm goes away: every node is noticed offline; it comes back on the same ports and state.
            let ports = farm.setups.map(\.port)
            await farm.shutdown()
            #expect(
                await nodes(of: model, within: .seconds(30)) { if case .offline = $0 { true } else { false } }
                    == Self.nodes)
            let again = try DeviceFarm.open(directory: farmDirectory, ports: ports, kinds: .mix, simulation: quiet)
            try await again.start()
            #expect(await nodes(of: model, within: .seconds(60)) { $0 == .online } == Self.nodes)
            await home.close()
            await again.shutdown()
        }
    }

    /// Waits until every node's state passes `check`, or `limit`; returns how many do. Woken by the model's changes.
    private func nodes(
        of model: HomeModel, within limit: Duration, where check: @escaping @Sendable (NodeConnection.State) -> Bool
    ) async -> Int {
        let passing = { @Sendable in model.snapshot.views.values.filter { check($0.state) }.count }
        let changes = model.changes(.home)
        guard passing() < Self.nodes else { return Self.nodes }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in changes where passing() == Self.nodes { return }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        return passing()
    }
}
