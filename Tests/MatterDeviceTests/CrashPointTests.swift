import Foundation
import HomeRecords
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@_spi(CrashTesting) @testable import HomeHub

/// A commissioning killed right after each step in turn, then the hub restarted (Matter Core §5.5; issue: no ghost
/// devices). Every case must end with the device in the store and answering over CASE, or with the device
/// commissionable again and no trace of our fabric on it, never with a device holding our NOC the hub does not know.
/// On virtual time over the simulated network, so the fail-safe's 60 s pass in milliseconds.
@Suite(.timeLimit(.minutes(2))) struct CrashPointTests {
    /// Before AddNOC the device holds nothing of ours that its fail-safe does not undo.
    static let undoneByTheFailSafe: [CommissioningStep] = [
        .passcodeSession, .armFailSafe, .regulatoryConfig, .deviceAttestation, .certificateSigningRequest,
        .addTrustedRoot,
    ]
    /// From AddNOC on the store has the node's row, and a restart finishes it.
    static let finishedAtRestart: [CommissioningStep] = [
        .addOperationalCertificate, .operationalDiscovery, .operationalSession, .commissioningComplete,
        .interview,  // the last step before the final store write
    ]

    @Test(arguments: undoneByTheFailSafe)
    func killedBeforeAddNOCTheDeviceIsCommissionableAgain(after step: CommissioningStep) async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture) = try await Self.killedCommissioning(in: directory, after: step)
            let hub = try await Hub(statePath: fixture.hubPath)
            #expect(try await hub.store.nodes().isEmpty, "nothing was stored before AddNOC")
            let transport = try fixture.controllerTransport()
            #expect(await hub.finishInterruptedCommissionings(interfaces: [], over: transport).isEmpty)
            await transport.shutdown()
            // The device's fail-safe (armed by PASE itself, §5.5) expires and rolls back what was done.
            try await Self.letTheFailSafeExpire(network, fixture)
            #expect(await fixture.device.fabrics.isEmpty)
            try await Self.expectCommissionable(fixture, network, hub: hub)
        }
    }

    @Test(arguments: finishedAtRestart)
    func killedFromAddNOCOnTheRestartFinishesTheDevice(after step: CommissioningStep) async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture) = try await Self.killedCommissioning(in: directory, after: step)
            let hub = try await Hub(statePath: fixture.hubPath)
            let interrupted = try #require(try await hub.store.nodes().first)
            #expect(interrupted.state == .failed, "its process is gone: failed at once, not after a timeout")
            #expect(interrupted.stepReached == step)
            let transport = try fixture.controllerTransport()
            let finished = try #require(
                await drive(network.clock) {
                    await hub.finishInterruptedCommissionings(interfaces: [], over: transport)
                }?.value)
            #expect(finished.map(\.nodeID) == [interrupted.nodeID])
            #expect(try await hub.store.node(interrupted.nodeID)?.state == .commissioned)
            #expect(try await !hub.store.devices(of: interrupted.nodeID).isEmpty)
            // Committed on the device: its fail-safe passing changes nothing, and it answers over CASE.
            try await Self.letTheFailSafeExpire(network, fixture)
            #expect(await fixture.device.fabrics.map(\.nodeID) == [interrupted.nodeID])
            let vendorName = await drive(network.clock) { () -> String? in
                let client = try? await fixture.caseClient(hub, nodeID: interrupted.nodeID, transport: transport)
                let report = try? await client?.read([BasicInformationCluster.Attributes.vendorName.path(endpoint: 0)])
                var cache = AttributeCache()
                cache.apply(report?.attributeReports ?? [])
                return try? cache.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0)
            }
            #expect(vendorName?.value == "swift-home")
            await transport.shutdown()
        }
    }

    /// Killed after AddNOC but restarted only once the fail-safe has rolled the device back: the hub cannot reach
    /// it over CASE, knows it never completed, and forgets it; the device is commissionable again.
    @Test func restartedAfterTheFailSafeExpiredTheNodeIsForgotten() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture) = try await Self.killedCommissioning(
                in: directory, after: .addOperationalCertificate)
            try await Self.letTheFailSafeExpire(network, fixture)
            #expect(await fixture.device.fabrics.isEmpty, "the fail-safe removed our NOC")
            let hub = try await Hub(statePath: fixture.hubPath)
            let transport = try fixture.controllerTransport()
            // The row's own clock is the wall clock: the restart is told the fail-safe's time has passed.
            let later = Date().addingTimeInterval(Double(HubConstants.failSafeSeconds) + 1)
            let finished = await drive(network.clock) {
                await hub.finishInterruptedCommissionings(interfaces: [], over: transport, now: later)
            }
            #expect(finished?.value.isEmpty == true)
            #expect(try await hub.store.nodes().isEmpty, "forgotten: the device rolled it back")
            await transport.shutdown()
            try await Self.expectCommissionable(fixture, network, hub: hub)
        }
    }

    /// Killed while the device's fail-safe holds it (before AddNOC): the next attempt is refused as BUSY, and the
    /// hub, knowing from its store that the fail-safe was its own, says so, waits it out and tries again, once.
    @Test(arguments: [CommissioningStep.armFailSafe, .certificateSigningRequest])
    func aDeviceHeldByOurEarlierAttemptIsWaitedForThenCommissioned(after step: CommissioningStep) async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture) = try await Self.killedCommissioning(in: directory, after: step)
            let killed = ContinuousClock.now
            #expect(await fixture.device.isFailSafeArmed)
            let hub = try await Hub(statePath: fixture.hubPath)
            let progress = Mutex<[(CommissioningProgress, at: Instant)]>([])
            let transport = try fixture.controllerTransport()
            let commissioner = Commissioner(
                authority: hub.authority, store: hub.store, transport: transport,
                progress: { event in progress.withLock { $0.append((event, at: network.clock.now)) } })
            let request = try fixture.request()
            // The hub judges how long its attempt's fail-safe has left by the wall clock (its store's row), the device
            // by its own, virtual, one: the time the restart took passes for the device too.
            network.clock.advance(by: ContinuousClock.now - killed)
            let started = network.clock.now
            // Virtual time passes while the device's PASE and CASE crypto runs in real time: 20 ms of it for every 5 ms
            // of real sleep (faster, and a loaded suite let a step of the second attempt time out). The fail-safe's
            // minute of waiting takes about fifteen seconds, asleep; the second attempt, in a debug build on a loaded
            // machine, may take a virtual minute more, so the limit is well past both.
            let result = await drive(
                network.clock, step: .milliseconds(20), limit: .seconds(600), pause: .milliseconds(5)
            ) {
                () -> Result<CommissioningResult, CommissioningError> in
                do throws(CommissioningError) {
                    return .success(try await commissioner.commission(request))
                } catch {
                    return .failure(error)
                }
            }
            let events = progress.withLock { $0 }
            let notes = events.compactMap { if case .note(let text) = $0.0 { text } else { nil } }
            let outcome = try #require(result?.value, "no end within the limit: \(notes)")
            let nodeID = try outcome.get().nodeID
            #expect(await fixture.device.fabrics.map(\.nodeID) == [nodeID])
            #expect(
                notes.first?.hasPrefix("the device is still in a commissioning an earlier attempt of this hub") == true)
            #expect(notes.contains { $0.hasPrefix("waiting for the device's fail-safe: ") && $0.hasSuffix(" s left") })
            // The second attempt begins once the fail-safe has passed (and a second's margin), not after a step's
            // deadline: when its PASE starts is what the hub decided, however long the crypto then takes.
            let attempts = events.filter { if case .started(.passcodeSession) = $0.0 { true } else { false } }
            #expect(attempts.count >= 2)
            let retried = try #require(attempts.dropFirst().first?.at) - started
            #expect(retried >= .seconds(Int(HubConstants.failSafeSeconds) - 5))
            #expect(retried < .seconds(Int(HubConstants.failSafeSeconds) + 5))
            await transport.shutdown()
        }
    }

    /// A hub that knows nothing of the commissioning holding the device does not wait: it explains the BUSY.
    @Test func aDeviceHeldByAnotherControllerIsExplainedNotWaitedFor() async throws {
        try await withTemporaryDirectory { directory in
            let (network, fixture) = try await Self.killedCommissioning(in: directory, after: .armFailSafe)
            let other = try await Hub(statePath: directory + "/other-hub")
            let transport = try fixture.controllerTransport()
            let commissioner = Commissioner(authority: other.authority, store: other.store, transport: transport)
            let request = try fixture.request()
            let started = network.clock.now
            let outcome = await Self.failure(of: commissioner, request, on: network)
            guard case .stepFailed(.passcodeSession, let failure)? = outcome?.value else {
                Issue.record("expected PASE to fail BUSY: \(String(describing: outcome))")
                return
            }
            #expect(failure.kind == .deviceBusy)
            #expect(failure.reason.contains("frees it when that attempt's fail-safe expires"))
            #expect(try #require(outcome?.at) - started < .seconds(10), "no wait for a fail-safe it did not arm")
            await transport.shutdown()
        }
    }

    /// A device, and a hub process that began commissioning it and died right after `step`.
    static func killedCommissioning(
        in directory: String, after step: CommissioningStep
    ) async throws -> (ClockedNetwork, LoopbackFixture) {
        let network = ClockedNetwork(clock: ManualClock(), seed: 11)
        let fixture = try await LoopbackFixture.start(in: directory, network: network)
        let hub = try await Hub(statePath: fixture.hubPath)
        let transport = try fixture.controllerTransport()
        let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: transport)
        await commissioner.endAbruptly(after: step)
        let request = try fixture.request()
        let outcome = await failure(of: commissioner, request, on: network)
        let ended = try #require(outcome?.value, "the commissioning did not end after \(step)")
        guard case .stepFailed(step, _) = ended else {
            Issue.record("the commissioning failed otherwise than ended after \(step): \(ended)")
            return (network, fixture)
        }
        // What the commissioner handed the store's queue without waiting lands first (a process killed within that
        // millisecond would lose it, and its next attempt would explain the BUSY instead of waiting).
        _ = try await hub.store.nodes()
        // The process dies: its sockets go, and the process that owned the row is no longer running.
        await transport.shutdown()
        try hub.store.database.execute("UPDATE nodes SET owner_start_ticks = 0")
        return (network, fixture)
    }

    /// Runs the commissioning on virtual time: how it failed (nil: it succeeded), and when it ended.
    static func failure(
        of commissioner: Commissioner, _ request: CommissioningRequest, on network: ClockedNetwork
    ) async -> (value: CommissioningError?, at: Instant)? {
        await drive(network.clock) { () -> CommissioningError? in
            do throws(CommissioningError) {
                _ = try await commissioner.commission(request)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Virtual time moves past the device's fail-safe, and the device acts on it.
    static func letTheFailSafeExpire(_ network: ClockedNetwork, _ fixture: LoopbackFixture) async throws {
        network.clock.advance(by: .seconds(Int(HubConstants.failSafeSeconds) + 1))
        #expect(await eventually(within: .seconds(10)) { await !fixture.device.isFailSafeArmed })
    }

    /// A new commissioning of the device succeeds: it is commissionable again.
    static func expectCommissionable(_ fixture: LoopbackFixture, _ network: ClockedNetwork, hub: Hub) async throws {
        let transport = try fixture.controllerTransport()
        let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: transport)
        let request = try fixture.request()
        let result = await drive(network.clock) { try? await commissioner.commission(request) }
        let nodeID = try #require(result?.value?.nodeID, "the device could be commissioned again")
        #expect(await fixture.device.fabrics.map(\.nodeID) == [nodeID])
        await transport.shutdown()
    }
}
