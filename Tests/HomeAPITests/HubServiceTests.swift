import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDataModel
import MatterDevice
import MatterDiscovery
import MatterPlatform
import MatterTestSupport
import Synchronization
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// One hub process serving its home on the local socket, and clients of it (here in the same test process, through
/// the socket all the same): what a client sees and does goes through the hub's one session to each node.
@Suite(.serialized) struct HubServiceTests {
    /// A virtual light commissioned onto the hub in a temporary directory; the hub's `Home` served on its socket; the
    /// device's log lines. The body gets the hub's home, the directory to attach clients to, the device and its log.
    static func withServedLight(
        _ body: (Home, String, VirtualDevice, HubService, @escaping @Sendable () -> [String]) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { directory in
            let lines = Mutex<[String]>([])
            let store = DeviceStore(directory: directory + "/device")
            let state = try store.loadOrCreate(DeviceSettings(kind: .light, passcode: 20202021, discriminator: 3840))
            let device = try VirtualDevice(store: store, state: state, port: 0) { line in
                lines.withLock { $0.append(line) }
            }
            try await device.start()
            let statePath = directory + "/hub"
            let hub = try await Hub(statePath: statePath)
            let trust = PAATrustStore(certificates: [try X509Certificate(derEncoded: device.attestation.paa)])
            _ = try await hub.commission(
                CommissioningRequest(
                    payload: device.setupPayload, address: .ipv4(IPv4Address(127 << 24 | 1), port: device.port),
                    trustStore: trust),
                name: "lamp", room: nil, progress: { _ in })
            // No hub serves the directory yet: this process becomes it.
            let home = try await Home.connect(stateDirectory: statePath)
            #expect(!home.isAttachedToHub)
            let service = try #require(home.hub.service)
            try await home.hub.followEveryNode()
            do {
                try await body(home, statePath, device, service) { lines.withLock { $0 } }
            } catch {
                service.stop()
                await home.disconnect()
                await device.shutdown()
                throw error
            }
            await home.close()
            // The hub closed its session (CloseSession): the device frees it and its subscription as it hears it (a
            // ceiling for a loaded machine, not an expected time).
            for _ in 0..<400 where await device.subscriptionCount > 0 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(await device.subscriptionCount == 0)
            await device.shutdown()
        }
    }

    @Test(
        "a client attached to the hub sees its home, changes it through the hub, and reaches the device over the hub's one session"
    )
    func aClientUsesTheHubsSession() async throws {
        try await Self.withServedLight { hubHome, statePath, device, service, deviceLog in
            func sessions() -> Int { deviceLog().filter { $0.hasPrefix("[session] CASE") }.count }
            // The commissioner's own CASE check, then the hub's live session.
            #expect(sessions() == 2)
            // The hub's only: the commissioner closed its own session, and its interview's subscription with it.
            let subscriptions = await device.subscriptionCount
            #expect(subscriptions == 1)
            var socket = stat()
            #expect(stat(statePath + "/hub.socket", &socket) == 0)
            #expect(socket.st_mode & 0o777 == 0o600, "the hub's socket is its owner's only")
            let client = try await Home.connect(stateDirectory: statePath)
            #expect(client.isAttachedToHub)
            #expect(service.clientCount == 1)
            let seen = try await client.devices().list()
            #expect(Set(seen.map(\.id)) == Set(try await hubHome.devices().list().map(\.id)))
            let lamp = try #require(seen.first { $0.types.contains(OnOffLightDeviceType.self) })
            #expect(lamp.name == "lamp")

            // A command from the client goes through the hub; the client's own subscription sees the device change.
            let states = Recorder { record in
                for try await light in lamp.types.subscribe(OnOffLightDeviceType.self) {
                    record(light.matterTraits.onOffTrait?.attributes.onOff)
                }
            }
            #expect(await states.values(count: 1) == [false])
            let onOff = try #require(await lamp.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
            try await onOff.on()
            await states.until { $0.last == true }
            #expect(states.values.last == true)
            try await onOff.toggle()
            await states.until { $0.last == false }
            #expect(states.values.last == false)
            states.cancel()
            // The client opened no session of its own, nor a subscription: the device saw none but the hub's.
            #expect(sessions() == 2)
            #expect(await device.subscriptionCount == subscriptions)

            // Renames and rooms are the hub's rules, and the client's model has the change when the call returns.
            let long = String(repeating: "é", count: 70)
            let renamed = try await lamp.setName(long)
            #expect(renamed.name == String(repeating: "é", count: 60))
            #expect(try await client.devices().list().first { $0.id == lamp.id }?.name == renamed.name)
            #expect(try await hubHome.devices().list().first { $0.id == lamp.id }?.name == renamed.name)
            let empty = await #expect(throws: HomeError.self) { try await lamp.setName("   ") }
            #expect(empty?.code == .invalidArgument)
            let kitchen = try await client.createRoom(name: "Kitchen")
            #expect(try await hubHome.rooms().list().map(\.name) == ["Kitchen"])
            let moved = try await client.move(device: renamed, to: kitchen)
            #expect(try await client.devices().list().first { $0.id == lamp.id }?.roomID == kitchen.id)
            #expect(moved.roomID == kitchen.id)
            let taken = await #expect(throws: HomeError.self) { try await client.createRoom(name: "kitchen") }
            #expect(taken?.code == .alreadyExists)

            // Sharing goes over the hub's session too: the node's fabrics (this hub's marked), a window opened and
            // revoked.
            let fabrics = try await renamed.fabrics()
            #expect(fabrics.count == 1 && fabrics.first?.isThisHub == true)
            let window = try await renamed.openCommissioningWindow()
            #expect(window.manualCode.count == 11)
            #expect(try await renamed.commissioningWindowStatus() == .enhanced)
            try await renamed.revokeCommissioningWindow()
            #expect(try await renamed.commissioningWindowStatus() == .closed)
            #expect(sessions() == 2)

            // Removing the device is the hub's work too: it asks the node to leave, and both homes lose it.
            let removed = try await renamed.decommissionDevice()
            #expect(removed.contains(lamp.id))
            #expect(try await hubHome.devices().list().isEmpty)
            #expect(try await client.devices().list().isEmpty)
        }
    }

    @Test(
        "when the hub goes away, a client's calls, live queries and event streams fail unavailable, naming the hub",
        .timeLimit(.minutes(1)))
    func theHubGoingAwayIsUnavailable() async throws {
        try await Self.withServedLight { _, statePath, _, service, _ in
            let client = try await Home.connect(stateDirectory: statePath)
            let rooms = Recorder { record in
                for try await batch in client.rooms().batched() { record(batch.count) }
            }
            let lamp = try #require(try await client.devices().list().first)
            let events = Recorder { record in for try await event in lamp.events.subscribeAll() { record(event) } }
            #expect(await rooms.values(count: 1) == [0])
            service.stop()
            await rooms.waitUntilFinished()
            #expect(rooms.error?.code == .unavailable)
            #expect(rooms.error?.message.contains("went away") == true)
            // A device's events are a live query too: they end in the same error, not in silence.
            await events.waitUntilFinished()
            #expect(events.error?.code == .unavailable)
            // A stream begun once the hub is gone fails at once too, rather than wait for a change that cannot come
            // (a stream whose task started only after the hub went away once hung so in a loaded suite).
            let late = Recorder { record in for try await event in lamp.events.subscribeAll() { record(event) } }
            await late.waitUntilFinished()
            #expect(late.error?.code == .unavailable)
            let error = await #expect(throws: HomeError.self) { try await client.createRoom(name: "Hall") }
            #expect(error?.code == .unavailable)
            #expect(error?.message.contains(statePath) == true)
        }
    }

    @Test(
        "a client that breaks the protocol is told why and disconnected, while the hub serves the others",
        arguments: [
            ("oversized", [0x7F, 0xFF, 0xFF, 0xFF] as [UInt8], "over the limit"),
            ("not JSON", HubServiceTests.frame(Array("{not json".utf8)), "does not decode"),
            (
                "a request first",
                HubServiceTests.frame(
                    Array(#"{"request":{"id":1,"operation":"readHubStatus","arguments":{}}}"#.utf8)),
                "before the hello"
            ),
            ("another version", HubServiceTests.frame(Array(#"{"hello":{"version":99}}"#.utf8)), "the client 99"),
            ("empty", [0, 0, 0, 0] as [UInt8], "empty"),
        ])
    func protocolViolations(name: String, bytes: [UInt8], reason: String) async throws {
        try await Self.withServedLight { _, statePath, _, service, _ in
            let good = try await Home.connect(stateDirectory: statePath)
            let connection = try StreamConnection.connect(path: statePath + "/hub.socket")
            let received = Mutex<[UInt8]>([])
            let closed = Mutex(false)
            connection.start(
                received: { bytes in received.withLock { $0 += bytes } }, closed: { closed.withLock { $0 = true } })
            connection.send(bytes)
            let deadline = ContinuousClock.now + .seconds(10)
            while !closed.withLock({ $0 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(closed.withLock { $0 }, "\(name): the hub kept the connection")
            var decoder = FrameDecoder(limit: HubProtocol.hubMessageLimit)
            let frames = try decoder.append(received.withLock { $0 })
            let message = try HubProtocol.decode(HubProtocol.HubMessage.self, from: try #require(frames.first))
            guard case .refused(let said) = message else {
                Issue.record("\(name): the hub answered \(message)")
                return
            }
            #expect(said.contains(reason), "\(name): \(said)")
            // The well-behaved client is served on.
            _ = try await good.createRoom(name: "Study")
            #expect(service.clientCount == 1)
        }
    }

    @Test("a request the hub cannot carry out fails alone: an unknown operation, arguments not its own")
    func requestsThatFailAlone() async throws {
        try await Self.withServedLight { _, statePath, _, _, _ in
            let connection = try StreamConnection.connect(path: statePath + "/hub.socket")
            let messages = AsyncStream<HubProtocol.HubMessage>.makeStream()
            let decoder = Mutex(FrameDecoder(limit: HubProtocol.hubMessageLimit))
            connection.start(
                received: { bytes in
                    for frame in (try? decoder.withLock { try $0.append(bytes) }) ?? [] {
                        if let message = try? HubProtocol.decode(HubProtocol.HubMessage.self, from: frame) {
                            messages.continuation.yield(message)
                        }
                    }
                }, closed: { messages.continuation.finish() })
            defer { connection.close() }
            let send = { (message: HubProtocol.ClientMessage) in _ = connection.send(HubProtocol.encode(message)) }
            // The answers to requests 1 to 3, in any order; model changes and the welcome skipped.
            func answers() async -> [UInt64: HubProtocol.HubMessage] {
                var found: [UInt64: HubProtocol.HubMessage] = [:]
                for await message in messages.stream {
                    switch message {
                    case .reply(let id, _), .failure(let id, _, _): found[id] = message
                    default: break
                    }
                    if found.count == 3 { break }
                }
                return found
            }
            send(.hello(version: HubProtocol.version))
            send(.request(id: 1, operation: "launchRocket", arguments: .object([:])))
            send(.request(id: 2, operation: RenameRoom.name, arguments: .object(["roomID": .unsigned(5)])))
            send(.request(id: 3, operation: ReadHubStatus.name, arguments: .object([:])))
            let found = await answers()
            guard case .failure(_, let code, let message) = found[1] else {
                Issue.record("an unknown operation was answered \(String(describing: found[1]))")
                return
            }
            #expect(code == .unimplemented)
            #expect(message.contains("launchRocket"))
            guard case .failure(_, let badCode, let badMessage) = found[2] else {
                Issue.record("arguments of the wrong type were answered \(String(describing: found[2]))")
                return
            }
            #expect(badCode == .invalidArgument)
            #expect(badMessage.contains(RenameRoom.name))
            // The connection is served on: the third request is answered, as the operation's own reply.
            guard case .reply(_, let reply) = found[3] else {
                Issue.record("the status was answered \(String(describing: found[3]))")
                return
            }
            let status = try reply.decode(as: HubStatus.self)
            #expect(status.stateDirectory.hasSuffix("/hub"))
            #expect(status.nodesOnline + status.nodesOffline + status.nodesUnknown == 1)
        }
    }

    @Test(
        "a client let go while its model tells an observer of a change (the observer held the last reference) closes without re-entering the model, which then hears the hub is gone"
    )
    func aClientReleasedInsideAnObserverClosesCleanly() async throws {
        try await Self.withServedLight { hubHome, statePath, _, _, _ in
            let model: HomeModel
            do {
                let client = try #require(try await HubClient.attach(stateDirectory: statePath))
                model = client.model
                let holder = ClientHolder(client)
                // The observer holds the client only through the holder, and lets it go at the first change: the
                // client's deinit then runs inside the model's publish, under its lock.
                model.observe { _, _ in holder.release() }
            }
            _ = try await hubHome.hub.perform(CreateRoom(name: "Attic", structureID: nil))
            #expect(await eventually(within: .seconds(10)) { model.sourceLost != nil })
        }
    }

    @Test("every operation has a name of its own")
    func operationNamesAreUnique() {
        let names = HubOperations.all.map { $0.name }
        #expect(Set(names).count == names.count)
        #expect(HubOperations.registeredNames == names.count)
    }

    static func frame(_ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + payload
    }
}

@Suite struct FrameDecoderTests {
    @Test func framesSplitAnywhereComeOutWhole() throws {
        let first = Array("{\"a\":1}".utf8)
        let second = Array(repeating: UInt8(ascii: "x"), count: 300)
        let stream = HubServiceTests.frame(first) + HubServiceTests.frame(second)
        for cut in 0...stream.count {
            var decoder = FrameDecoder(limit: 1000)
            let frames = try decoder.append(Array(stream[..<cut])) + decoder.append(Array(stream[cut...]))
            #expect(frames == [first, second], "cut at \(cut)")
        }
    }

    @Test func aLengthOverTheLimitIsRefusedBeforeItsBytesArrive() {
        var decoder = FrameDecoder(limit: 1000)
        #expect(throws: FrameError.oversized(length: 1001, limit: 1000)) {
            _ = try decoder.append([0, 0, 0x03, 0xE9])
        }
    }
}

/// Holds a client until told to let it go.
private final class ClientHolder: Sendable {
    private let client: Mutex<HubClient?>

    init(_ client: HubClient) {
        self.client = Mutex(client)
    }

    func release() {
        // Taken out under the lock, let go after it: the deinit must not run while this lock is held.
        let client = self.client.withLock { held -> HubClient? in
            defer { held = nil }
            return held
        }
        _ = client
    }
}
