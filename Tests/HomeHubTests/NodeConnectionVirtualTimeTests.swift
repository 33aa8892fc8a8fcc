import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@testable import HomeHub

/// Node connections on virtual time: the controller's transport and a loopback light on a `ClockedNetwork`, with a
/// `ManualClock` the test advances. Liveness, offline detection and reconnection are measured in virtual time, so
/// the figures are the protocol's, not the machine's, and the tests take milliseconds of real time.
@Suite(.timeLimit(.minutes(1))) struct NodeConnectionVirtualTimeTests {
    @Test func silencePastLivenessIsOfflineOnTimeAndAPoweredOnNodeComesBack() async throws {
        let network = ClockedNetwork(clock: ManualClock(), seed: 1)
        let clock = network.clock
        let fixture = try LiveConnectionFixture(network: network)
        let light = try LoopbackLight(network: network)
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: 1)
        let online = await drive(clock) { try? await connection.connected() }
        #expect(online != nil)
        let feed = ConnectivityFeed(await connection.events().makeAsyncIterator())
        _ = await drive(clock) { await feed.nextConnectivity() }

        await light.powerOff()
        let silenceStarted = clock.now
        let offline = await drive(clock) { await feed.nextConnectivity() }
        let (state, at) = try #require(offline)
        guard case .offline(_, let reason)? = state else {
            Issue.record("expected offline, got \(String(describing: state))")
            return
        }
        // Max interval 1 s plus the retransmissions of a node with 50 ms MRP intervals (about 0.7 s), from the
        // last keep-alive, which went out at most half an interval before the silence; a step of slack.
        #expect(reason.hasPrefix("subscription lost: no report for 1.7"))
        let silence = at - silenceStarted
        #expect(
            silence >= .milliseconds(1200) && silence <= .milliseconds(1760), "offline after \(silence) of virtual time"
        )

        // While it is off the retries fail; once it is back, the connection re-establishes and resubscribes.
        await light.set(isOn: true)
        await light.powerOn()
        let back = await drive(clock) { await feed.nextConnectivity() }
        #expect(back?.value == .online)
        #expect(try await connection.value(OnOffCluster.Attributes.onOff, endpoint: 1) == true)
        let establishments = await fixture.establishments.values
        #expect(establishments.count >= 2 && Set(establishments) == [1])
        await fixture.stop([connection], [light])
    }

    /// A one-shot command needs the session, not the subscription: with a node whose subscription never gets an
    /// answer, a command goes through on the session as soon as it is up, and again after the subscription has given
    /// up, which leaves that session in place (one establishment).
    @Test func aCommandActsOnTheSessionWhileTheSubscriptionFails() async throws {
        let network = ClockedNetwork(clock: ManualClock(), seed: 3)
        let clock = network.clock
        let fixture = try LiveConnectionFixture(network: network)
        let light = try LoopbackLight(network: network)
        await light.ignoreSubscriptions()
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: 5)
        let feed = ConnectivityFeed(await connection.events().makeAsyncIterator())
        let on = await drive(clock) { () -> Bool in
            (try? await connection.invoke(OnOffCluster.Commands.On(), endpoint: 1)) != nil
        }
        #expect(on?.value == true)
        #expect(await light.model.isOn)
        #expect(await connection.state == .connecting, "the subscription is still waiting for its answer")

        // The subscription gives up (the fixture's response timeout): offline, the session kept.
        let offline = await drive(clock) { () -> NodeConnection.State? in
            while let state = await feed.nextConnectivity() {
                if case .offline = state { return state }
            }
            return nil
        }
        guard case .offline? = offline?.value else {
            Issue.record("expected offline, got \(String(describing: offline))")
            return
        }
        let off = await drive(clock) { () -> Bool in
            (try? await connection.invoke(OnOffCluster.Commands.Off(), endpoint: 1)) != nil
        }
        #expect(off?.value == true)
        #expect(await light.model.isOn == false)
        #expect(await fixture.establishments.values == [1])
        #expect(await light.subscribeRequests.count == 1)
        await fixture.stop([connection], [light])
    }

    /// A fifth of the datagrams lost, both ways: MRP's retransmissions, on virtual time, still bring the node
    /// online and its change through.
    @Test func aLossyNetworkStillBringsTheNodeOnlineAndItsChangesThrough() async throws {
        let network = ClockedNetwork(
            clock: ManualClock(), seed: 7, conditions: .init(loss: 0.2, delay: .milliseconds(2)))
        let clock = network.clock
        let fixture = try LiveConnectionFixture(network: network)
        let light = try LoopbackLight(network: network)
        await light.start()
        let connection = await fixture.connect(to: light, maxInterval: 5)
        let online = await drive(clock) { () -> Bool in
            (try? await connection.connected()) != nil
        }
        #expect(online?.value == true)
        await light.set(isOn: true)
        let changed = await drive(clock) { () -> Bool? in
            try? await connection.value(OnOffCluster.Attributes.onOff, endpoint: 1)
        }
        #expect(changed != nil)
        let seen = await drive(clock) { () -> Bool in
            while (try? await connection.value(OnOffCluster.Attributes.onOff, endpoint: 1)) != true {
                try? await clock.sleep(for: .milliseconds(10))
            }
            return true
        }
        #expect(seen?.value == true)
        #expect(network.statistics.lost > 0, "the network lost nothing: the test proved nothing")
        await fixture.stop([connection], [light])
    }
}

/// One connection's events, consumed by the driving tasks one after the other (never two at once: each `drive`
/// awaits its work before the next begins), which is why it may be shared unchecked.
final class ConnectivityFeed: @unchecked Sendable {
    private var events: AsyncStream<NodeConnection.Event>.Iterator

    init(_ events: AsyncStream<NodeConnection.Event>.Iterator) {
        self.events = events
    }

    func nextConnectivity() async -> NodeConnection.State? {
        await events.nextConnectivity()
    }
}
