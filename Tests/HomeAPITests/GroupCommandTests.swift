import Foundation
import HomeHub
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@testable import HomeEngine

/// A room in one message, on the simulated network and virtual time: what `room.send` runs (`GroupCommand`).
@Suite(.timeLimit(.minutes(1))) struct GroupCommandTests {
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
        func since(_ mark: Int) -> [String] { all.withLock { Array($0[mark...]) } }
        var count: Int { all.withLock { $0.count } }
    }

    /// Three lights in a room, each given the room's group by the hub: an On for the room is one group message each
    /// of them acts on (its own log says so), and nothing besides: no light is sent the command by unicast (it would
    /// act twice), and each confirms by its own report of the change.
    @Test func aRoomCommandIsOneGroupMessageEveryMemberActsOn() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 52)
            let clock = network.clock
            var lights: [(device: VirtualDevice, lines: Lines)] = []
            for index in 0..<3 {
                let store = DeviceStore(directory: "\(directory)/light\(index)")
                let state = try store.loadOrCreate(
                    DeviceSettings(kind: .light, passcode: 20_202_021, discriminator: UInt16(3840 + index)))
                let lines = Lines()
                let device = try VirtualDevice(
                    store: store, state: state, sockets: network.sockets(), multicast: network, clock: clock,
                    log: { line in lines.all.withLock { $0.append(line) } })
                try await device.start()
                await device.useGroupInterfaces(["sim0"])
                lights.append((device, lines))
            }
            let hub = try await Hub(statePath: directory + "/hub", transport: { network.transport() })
            for (index, light) in lights.enumerated() {
                let request = CommissioningRequest(
                    payload: light.device.setupPayload,
                    address: .ipv4(IPv4Address(127 << 24 | 1), port: light.device.port),
                    trustStore: PAATrustStore(certificates: [
                        try X509Certificate(derEncoded: light.device.attestation.paa)
                    ]))
                let done = await drive(clock, step: .milliseconds(5)) {
                    try? await hub.commission(request, name: "Light \(index)", room: "Kitchen", progress: { _ in })
                }
                #expect(done?.value != nil, "light \(index) was not commissioned")
            }
            let engine = try await HubEngine(
                hub: hub, interfaces: [], groupInterfaces: ["sim0"], settings: .init(),
                commissioning: CommissioningSettings(
                    interfaces: [], paaTrustStore: directory + "/hub/paa", address: nil, callerUID: getuid()))
            _ = await drive(clock, step: .milliseconds(5)) { try? await engine.followEveryNode() }
            let nodes = Array(engine.model.snapshot.devices.keys)
            #expect(nodes.count == 3)
            // The hub gives each node the room's group in the background.
            let given = await drive(clock, step: .milliseconds(10)) {
                await eventually(within: .seconds(30)) {
                    for node in nodes where ((try? await hub.store.groupsGiven(to: node)) ?? nil) == nil {
                        return false
                    }
                    return true
                }
            }
            #expect(given?.value == true, "the room's group was not given to every light")
            let room = try #require(engine.model.snapshot.rooms.first { $0.name == "Kitchen" })

            let marks = lights.map(\.lines.count)
            let sent = await drive(clock, step: .milliseconds(5)) {
                try? await engine.perform(GroupCommand(.room(room.id), command: .on))
            }
            let reply = try #require(sent?.value ?? nil)
            #expect(reply.groupMessageSkipped == nil)
            #expect(reply.members.count == 3)
            for member in reply.members {
                #expect(member.via == "group", "\(member.name)")
                #expect((member.confirmedAfterMilliseconds ?? 0) > 0, "\(member.name) reported no change")
                #expect(member.failure == nil)
            }
            // Let anything else that was sent land, then read each light's own log.
            _ = await drive(clock, step: .milliseconds(5)) { try? await clock.sleep(for: .milliseconds(500)) }
            for (index, light) in lights.enumerated() {
                let new = light.lines.since(marks[index])
                #expect(new.filter { $0.hasPrefix("[light] O") } == ["[light] ON"], "light \(index): \(new)")
                let byGroup = new.filter { $0.hasPrefix("[group] ") && $0.hasSuffix(" acted on") }
                #expect(byGroup.count == 1, "light \(index) acted on no group message: \(new)")
                #expect(byGroup.first?.contains("cluster 0x0006 command 0x0001 on endpoint 1") == true, "\(byGroup)")
            }

            // A light removed from the home kept the group key it was given: the key is replaced, the others are
            // given the new one, and the room still goes by one message.
            let before = try await hub.store.homeGroupKeySet().epochKeys
            let removed = try #require(reply.members.last?.device.nodeID)
            let removal = await drive(clock, step: .milliseconds(5)) {
                try? await engine.perform(Decommission(nodeID: removed))
            }
            #expect(removal?.value != nil, "the light was not removed")
            let after = try await hub.store.homeGroupKeySet().epochKeys
            #expect(
                after.first?.key != before.first?.key && (after.first?.startTime ?? 0) > (before.first?.startTime ?? 0))
            let kept = nodes.filter { $0 != removed }
            let rekeyed = await drive(clock, step: .milliseconds(10)) {
                await eventually(within: .seconds(30)) {
                    for node in kept {
                        guard let plan = try? await engine.groups.plan(for: node),
                            ((try? await hub.store.groupsGiven(to: node)) ?? nil) == plan.fingerprint
                        else { return false }
                    }
                    return true
                }
            }
            #expect(rekeyed?.value == true, "the lights left were not given the new key")
            let off = await drive(clock, step: .milliseconds(5)) {
                try? await engine.perform(GroupCommand(.room(room.id), command: .off))
            }
            let offReply = try #require(off?.value ?? nil)
            #expect(offReply.members.count == 2 && offReply.members.allSatisfy { $0.via == "group" }, "\(offReply)")
            #expect(offReply.members.allSatisfy { ($0.confirmedAfterMilliseconds ?? 0) > 0 }, "\(offReply)")
            await engine.close()
            for light in lights { await light.device.shutdown() }
        }
    }
}
