import HomeRecords
import MatterDataModel
import MatterDevice
import MatterInteraction
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HomeHub
@testable import HubWire

/// Events over a live node: the virtual switch panel, whose buttons press and release on their own every few
/// simulation steps (here 20 ms apart, so a press comes within about 100 ms), commissioned over loopback.
@Suite(.serialized) struct EventControllerTests {
    @Test func eachPressReachesTheSubscriberOnceInTheNodesOrder() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(
            kind: .switchPanel, simulation: Simulation(seed: 7, interval: .milliseconds(20))
        ) { home, _, _ in
            let buttons = try await home.devices().list()
            let button = try #require(buttons.first { $0.types.contains(GenericSwitchDeviceType.self) })
            let presses = Recorder { record in
                for try await press in button.events.subscribe(SwitchTrait.InitialPressEvent.self) { record(press) }
            }
            let all = Recorder { record in for try await event in button.events.subscribeAll() { record(event) } }
            let seen = await presses.values(count: 3)
            let everything = await all.values(count: 6)
            #expect(seen.count >= 3)
            #expect(seen.allSatisfy { $0.event.newPosition == 1 && $0.endpoint == button.events.endpoints.first })
            // Once each, in the node's order: strictly increasing event numbers.
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.number < $1.number })
            #expect(Set(everything.map(\.description)).isSuperset(of: ["Switch.InitialPress  newPosition=1"]))
            #expect(everything.contains { $0.description == "Switch.ShortRelease  previousPosition=1" })
            #expect(zip(everything, everything.dropFirst()).allSatisfy { $0.number < $1.number })
            // Every press subscribeAll saw after the first typed one is one the typed subscription saw too.
            let typed = Set(seen.map(\.number))
            let window = (seen.first?.number ?? 0)...(seen.last?.number ?? 0)
            let pressed = everything.filter { $0.decoded(as: SwitchTrait.InitialPressEvent.self) != nil }
            let inWindow = pressed.map(\.number).filter { window.contains($0) }
            #expect(inWindow.allSatisfy { typed.contains($0) })
            presses.cancel()
            all.cancel()
        }
    }

    /// A device that reports no events (a light) yields none and no error; the sequence ends with its task.
    @Test func aDeviceWithoutEventsYieldsNoneAndNoError() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, _ in
            let lamp = try #require(try await home.devices().list().first)
            let events = Recorder { record in for try await event in lamp.events.subscribeAll() { record(event) } }
            _ = await lamp.types.get(OnOffLightDeviceType.self)
            try await Task.sleep(for: .milliseconds(300))
            events.cancel()
            await events.waitUntilFinished()
            #expect(events.values.isEmpty && events.error == nil)
        }
    }

    /// A subscriber that fell behind before it heard anything is caught up from the node's recent events, but with
    /// none from before it subscribed (a press from an hour ago is no press now).
    @Test(.timeLimit(.minutes(1))) func aSubscriberThatFellBehindGetsNoEventFromBeforeItSubscribed() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x000F)], named: "Button")
            let button = try #require(try await home.devices().list().first)
            let model = home.context.model
            func press(_ number: UInt64) {
                let view = model.view(of: 0x11) ?? HomeModel.NodeView(cache: AttributeCache(), state: .online)
                let press = NodeEvent(
                    endpoint: 1, cluster: SwitchCluster.id, event: SwitchCluster.Events.InitialPress.id,
                    number: number, priority: .info, timestamp: .systemMilliseconds(number), data: nil)
                model.nodeReported(0x11, view: view, changed: [], events: [press])
            }
            press(1)
            press(2)
            var events = button.events.subscribeAll().makeAsyncIterator()
            // More batches than a listener's backlog holds, none read: the subscriber falls behind.
            for version in 0..<UInt32(HubConstants.modelListenerBacklog + 10) {
                DeviceProjectionTests.report(onOff: version % 2 == 0, version: version, to: 0x11, in: model)
            }
            press(3)
            let first = try await events.next()
            #expect(first?.number == 3)
        }
    }
}
