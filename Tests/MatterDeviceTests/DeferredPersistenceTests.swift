import Foundation
import HomeHub
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTime
import Testing

/// Values that change often (on/off, levels) are written within half a second of a change, once for a burst, and
/// never hold up the answer; a device that shuts down writes what is pending first.
@Suite(.timeLimit(.minutes(2))) struct DeferredPersistenceTests {
    @Test func anOnOffChangeIsWrittenWithinHalfASecondAndAtShutdown() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 5)
            let fixture = try await LoopbackFixture.start(in: directory, network: network)
            let hub = try await Hub(statePath: fixture.hubPath)
            let (_, client, transport) = try await fixture.commissionAndConnect(hub)
            let stored = { @Sendable () -> Data? in try? fixture.store.load()?.clusters["1/6"] }
            let on = Data(TLVWriter.encode(TLVElement(.bool(true))))
            let off = Data(TLVWriter.encode(TLVElement(.bool(false))))

            // Answered at once; on disk only once the deferral passed.
            let answered = await drive(network.clock, step: .milliseconds(1)) {
                (try? await client.invoke(OnOffCluster.Commands.On(), endpoint: 1)) != nil
            }
            #expect(answered?.value == true)
            #expect(stored() != on)
            // 600 ms of the device's time pass; the write it then makes may take a loaded machine's real time.
            _ = await drive(network.clock, step: .milliseconds(50)) {
                try? await network.clock.sleep(for: .milliseconds(600))
            }
            #expect(await eventually(within: .seconds(10)) { stored() == on })

            // Pending at shutdown: written then.
            _ = await drive(network.clock, step: .milliseconds(1)) {
                (try? await client.invoke(OnOffCluster.Commands.Off(), endpoint: 1)) != nil
            }
            #expect(stored() == on)
            await transport.shutdown()
            await fixture.device.shutdown()
            #expect(stored() == off)
        }
    }
}
