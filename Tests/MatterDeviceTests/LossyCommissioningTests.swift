import Foundation
import HomeHub
import HomeRecords
import MatterDevice
import MatterPlatform
import MatterTestSupport
import MatterTime
import Testing

/// The whole commissioning flow, our commissioner against our device, on virtual time over a network that loses
/// 20% of what it sends, duplicates 10% and delays each datagram by 1 to 6 ms (so some overtake others). MRP
/// retransmits what is lost on the manual clock; duplicate detection drops the copies.
@Suite(.timeLimit(.minutes(1))) struct LossyCommissioningTests {
    static let conditions = ClockedNetwork.Conditions(
        loss: 0.2, duplication: 0.1, delay: .milliseconds(1), extraDelay: .milliseconds(5))

    @Test func commissioningCompletesOverALossyNetwork() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 31, conditions: Self.conditions)
            let fixture = try await LoopbackFixture.start(in: directory, network: network)
            let hub = try await Hub(statePath: fixture.hubPath)
            let transport = try fixture.controllerTransport()
            let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: transport)
            let request = try fixture.request()
            let outcome = await drive(network.clock, step: .milliseconds(5)) {
                () -> Result<CommissioningResult, any Error> in
                do {
                    return .success(try await commissioner.commission(request))
                } catch {
                    return .failure(error)
                }
            }
            let result = try #require(try outcome?.value.get())
            #expect(result.description?.vendorName == "swift-home")
            #expect(try await hub.store.node(result.nodeID)?.state == .commissioned)
            #expect(await fixture.device.fabrics.map(\.nodeID) == [result.nodeID])
            // The network really was lossy.
            #expect(network.statistics.lost > 0 && network.statistics.duplicated > 0, "\(network.statistics)")
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }
}
