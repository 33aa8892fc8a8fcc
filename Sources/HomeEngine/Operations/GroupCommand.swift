import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV
import Synchronization

/// One command to every device of a room or a named group at once (Matter Core §4.16): one group message reaches the
/// members that hold the group, all acting at the same moment; the rest (no Groups cluster, or not given the group
/// yet) get it by unicast. Each member's confirmation is its own subscription reporting the change, and the reply says
/// who confirmed and how long after the command went out.
public struct GroupCommand: HubOperation {
    public static let name = "groupCommand"
    public let target: Target
    public let command: Command

    /// Whose devices: a room's, or a named group's (by its group ID).
    public enum Target: Codable, Sendable, Hashable {
        case room(String)
        case group(UInt16)
    }
    /// Unicast to every member, no group message: for a network that drops multicast, and to compare.
    public let unicastOnly: Bool

    /// The commands a room takes: the same as a device's On/Off and Level Control traits.
    public enum Command: Codable, Sendable, Hashable, CustomStringConvertible {
        case on, off, toggle
        /// Level Control MoveToLevelWithOnOff, no transition.
        case level(UInt8)

        public var description: String {
            switch self {
            case .on: "On"
            case .off: "Off"
            case .toggle: "Toggle"
            case .level(let level): "MoveToLevelWithOnOff \(level)"
            }
        }

        var invoke: GroupInvokeRequest.Command {
            switch self {
            case .on: .init(cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.On.id.rawValue)
            case .off: .init(cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.Off.id.rawValue)
            case .toggle: .init(cluster: OnOffCluster.id.rawValue, command: OnOffCluster.Commands.Toggle.id.rawValue)
            case .level(let level):
                .init(
                    cluster: LevelControlCluster.id.rawValue,
                    command: LevelControlCluster.Commands.MoveToLevelWithOnOff.id.rawValue,
                    fields: TLVElement(
                        LevelControlCluster.Commands.MoveToLevelWithOnOff(
                            level: level, transitionTime: .value(0), optionsMask: [], optionsOverride: []
                        ).tlvValue()))
            }
        }

        /// The attribute whose report confirms it, and the value that says it took effect (nil: any change).
        var confirmation: (attribute: UInt32, cluster: UInt32, value: TLVValue?) {
            switch self {
            case .on: (0, OnOffCluster.id.rawValue, .bool(true))
            case .off: (0, OnOffCluster.id.rawValue, .bool(false))
            case .toggle: (0, OnOffCluster.id.rawValue, nil)
            case .level(let level): (0, LevelControlCluster.id.rawValue, .unsigned(UInt64(level)))
            }
        }
    }

    public init(_ target: Target, command: Command, unicastOnly: Bool = false) {
        self.target = target
        self.command = command
        self.unicastOnly = unicastOnly
    }

    public struct Reply: Codable, Sendable, Hashable {
        /// The group (a room's own, or the named group), and why no group message went out when none did.
        public let groupID: UInt16
        public let groupMessageSkipped: String?
        public let members: [Member]

        public struct Member: Codable, Sendable, Hashable {
            public let device: DeviceID
            public let name: String
            /// "group" or "unicast".
            public let via: String
            /// When its subscription reported the change, after the command went out; nil when it did not within
            /// `HubEngineTiming.groupConfirmation`.
            public let confirmedAfterMilliseconds: Double?
            /// Why it did not act (its unicast failed), when it did not.
            public let failure: String?
        }
    }

    public var access: HubAccess { .member }
    public var summary: String { "send \(command) to a group of devices" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Reply {
        let engine = scope.engine
        let snapshot = engine.model.snapshot
        let groupID: UInt16
        let inTarget: (DeviceRecord) -> Bool
        switch target {
        case .room(let roomID):
            guard snapshot.rooms.contains(where: { $0.id == roomID }) else {
                throw HomeError(.notFound, "no room with ID \(roomID)")
            }
            let groupIDs = try await engine.write { store async throws(HubStoreError) in try await store.roomGroupIDs()
            }
            guard let id = groupIDs[roomID] else { throw HomeError(.dataLoss, "the room has no group ID") }
            groupID = id
            inTarget = { $0.roomID == roomID }
        case .group(let id):
            guard let group = snapshot.groups.first(where: { $0.id == id }) else {
                throw HomeError(.notFound, "no group 0x\(String(id, radix: 16, uppercase: true))")
            }
            groupID = id
            let members = Set(group.members)
            inTarget = { members.contains($0.id) }
        }
        let confirmation = command.confirmation
        let members = snapshot.devices.values.joined().filter { device in
            inTarget(device)
                && snapshot.views[device.id.nodeID].map { view in
                    (try? view.cache.value(DescriptorCluster.Attributes.serverList, endpoint: device.id.endpoint))?
                        .contains(ClusterID(rawValue: confirmation.cluster)) == true
                } ?? true
        }
        guard !members.isEmpty else {
            throw HomeError(.failedPrecondition, "no device of it takes \(command)")
        }
        // Who holds the group now: the rest get the command by unicast (and their groups in the background).
        var inGroup: Set<DeviceID> = []
        // A node counts by what it was given, not only by what it should hold: one whose groups are being changed may
        // already hear this group, and would act twice on a group message and a unicast.
        for nodeID in Set(members.map(\.id.nodeID)) where !unicastOnly {
            guard let plan = try? await engine.groups.plan(for: nodeID) else { continue }
            let given = try? await engine.store.groupsGiven(to: nodeID)
            for member in members
            where member.id.nodeID == nodeID && plan.holds(groupID, on: member.id.endpoint, given: given ?? nil) {
                inGroup.insert(member.id)
            }
        }

        // A device already as commanded reports nothing: its cached value is its confirmation, and nobody waits for it.
        let already = Set(
            members.filter { member in
                confirmation.value != nil
                    && snapshot.views[member.id.nodeID]?.cache.value(
                        endpoint: member.id.endpoint, cluster: confirmation.cluster, attribute: confirmation.attribute)?
                        .value == confirmation.value
            }.map(\.id))
        let times = ConfirmationTimes(expecting: Set(members.map(\.id)).subtracting(already))
        let changes = engine.model.changes(.all)
        let watcher = Task { await Self.confirmations(into: times, confirmation, from: changes) }
        let sentAt = ContinuousClock.now
        var skipped: String? = unicastOnly ? "unicast only was asked for" : nil
        if !inGroup.isEmpty {
            do throws(HomeError) {
                try await engine.groups.send(command.invoke, toGroup: groupID)
            } catch {
                skipped = error.message
                inGroup = []
            }
        }
        var failures: [DeviceID: String] = [:]
        await withTaskGroup(of: (DeviceID, String?).self) { group in
            for member in members where !inGroup.contains(member.id) {
                let invoke = command.invoke
                group.addTask {
                    do {
                        let connection = try await engine.live.connection(to: member.id.nodeID)
                        _ = try await connection.invoke(
                            endpoint: member.id.endpoint, cluster: invoke.cluster, command: invoke.command,
                            fields: invoke.fields?.value ?? .structure([]), timedWindow: nil)
                        return (member.id, nil)
                    } catch {
                        return (member.id, "\(error)")
                    }
                }
            }
            for await (device, failure) in group { if let failure { failures[device] = failure } }
        }
        // A device whose command failed will not report: the wait is for the others only.
        if times.stopExpecting(Set(failures.keys)) { watcher.cancel() }
        await watcher.value
        let confirmed = times.found
        return Reply(
            groupID: groupID, groupMessageSkipped: skipped,
            members: members.sorted { $0.id < $1.id }.map { member in
                let after = confirmed[member.id].map { Self.milliseconds(sentAt.duration(to: $0)) }
                return Reply.Member(
                    device: member.id, name: member.name, via: inGroup.contains(member.id) ? "group" : "unicast",
                    confirmedAfterMilliseconds: after ?? (already.contains(member.id) ? 0 : nil),
                    failure: failures[member.id])
            })
    }

    /// Records when each expected device reports the confirming attribute, until all have or
    /// `HubEngineTiming.groupConfirmation` passed (or the task is cancelled: every expected device has reported).
    private static func confirmations(
        into times: ConfirmationTimes, _ confirmation: (attribute: UInt32, cluster: UInt32, value: TLVValue?),
        from changes: HomeModel.Changes
    ) async {
        guard !times.isComplete else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await update in changes {
                    guard case .changes(let changes) = update else { continue }
                    for case .attributes(let nodeID, let endpoint, let values) in changes {
                        let path = ConcreteAttributePath(
                            endpoint: endpoint, cluster: confirmation.cluster, attribute: confirmation.attribute)
                        guard let value = values[path], confirmation.value == nil || value?.value == confirmation.value
                        else { continue }
                        if times.confirm(DeviceID(nodeID: nodeID, endpoint: endpoint), at: ContinuousClock.now) {
                            return
                        }
                    }
                }
            }
            group.addTask { try? await Task.sleep(for: HubEngineTiming.groupConfirmation) }
            await group.next()
            group.cancelAll()
        }
    }

    /// When each member confirmed, as the listener records it, and whom it still waits for.
    private final class ConfirmationTimes: Sendable {
        private struct State {
            var expected: Set<DeviceID>
            var found: [DeviceID: ContinuousClock.Instant] = [:]
            var isComplete: Bool { expected.isSubset(of: found.keys) }
        }

        private let state: Mutex<State>

        init(expecting expected: Set<DeviceID>) {
            state = Mutex(State(expected: expected))
        }

        var found: [DeviceID: ContinuousClock.Instant] { state.withLock { $0.found } }
        var isComplete: Bool { state.withLock { $0.isComplete } }

        /// Records an expected device's first report; returns whether every expected device has reported.
        func confirm(_ device: DeviceID, at time: ContinuousClock.Instant) -> Bool {
            state.withLock { state in
                if state.expected.contains(device), state.found[device] == nil { state.found[device] = time }
                return state.isComplete
            }
        }

        /// Waits no more for `devices`; returns whether every device still expected has reported.
        func stopExpecting(_ devices: Set<DeviceID>) -> Bool {
            state.withLock { state in
                state.expected.subtract(devices)
                return state.isComplete
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
