import Foundation
import HomeHub
import MatterDevice
import MatterPlatform
import MatterTestSupport
import Testing

/// The whole commissioning flow, our commissioner against our device, while both sides' links lose 20% of what
/// they send, duplicate 10% and reorder 10%. MRP retransmits what is lost; duplicate detection drops the copies.
@Suite(.timeLimit(.minutes(3))) struct LossyCommissioningTests {
    static let conditions = ImpairedSocket.Conditions(loss: 0.2, duplication: 0.1, reordering: 0.1)

    @Test func commissioningCompletesOverALossyNetwork() async throws {
        try await withTemporaryDirectory { directory in
            let store = DeviceStore(directory: directory + "/device")
            let state = try store.loadOrCreate(
                DeviceSettings(passcode: LoopbackFixture.passcode, discriminator: LoopbackFixture.discriminator))
            // The device answers on its IPv4 socket's port; that is the link the test exercises.
            let deviceLink = try ImpairedSocket(family: .ipv4, conditions: Self.conditions, seed: 31)
            let device = try VirtualDevice(
                store: store, state: state,
                sockets: (deviceLink, try ImpairedSocket(family: .ipv6, conditions: Self.conditions, seed: 22)))
            try await device.start()
            let fixture = LoopbackFixture(directory: directory, store: store, device: device, lines: LogLines())

            let hub = try Hub(statePath: fixture.hubPath)
            let hubLink = try ImpairedSocket(family: .ipv4, conditions: Self.conditions, seed: 23)
            let transport = MatterTransport(
                ipv4: hubLink, ipv6: try ImpairedSocket(family: .ipv6, conditions: Self.conditions, seed: 24))
            let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: transport)
            let address = fixture.address
            let result = try await commissioner.commission(
                CommissioningRequest(payload: device.setupPayload, address: address, trustStore: try fixture.trustStore)
            )

            #expect(result.description?.vendorName == "swift-home")
            #expect(try hub.store.node(result.nodeID)?.state == .commissioned)
            #expect(await device.fabrics.map(\.nodeID) == [result.nodeID])
            // The links really were impaired (counted over both directions: which draws fall where depends on timing).
            let counts = [hubLink.statistics, deviceLink.statistics]
            #expect(counts.map(\.lost).reduce(0, +) > 0, "\(counts)")
            #expect(counts.map(\.duplicated).reduce(0, +) > 0, "\(counts)")
            #expect(counts.map(\.reordered).reduce(0, +) > 0, "\(counts)")
            await transport.shutdown()
            await device.shutdown()
        }
    }
}
