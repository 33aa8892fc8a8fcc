import Foundation
import HomeHub
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterSecureChannel
import MatterTLV
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@testable import MatterDevice

/// A Long Idle Time device on virtual time over the simulated network: a client registers with it, it sleeps (and
/// answers nothing), wakes an idle period later and checks in with the client, which can then reach it; a client
/// holding a subscription is reported to instead, at an interval of the device's idle time.
@Suite(.timeLimit(.minutes(1))) struct IntermittentDeviceTests {
    static let key: [UInt8] = Array(0x40..<0x50)
    static let settings = IntermittentConnection(mode: .lit, idleModeSeconds: 600)

    @Test func aLITDeviceSleepsThenChecksInWithItsRegisteredClient() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 23)
            let fixture = try await LoopbackFixture.start(
                in: directory, kind: .contactSensor, network: network, intermittent: Self.settings)
            let hub = try await Hub(statePath: fixture.hubPath)
            let (client, transport, checkIns) = try await Self.connect(fixture, hub, network)
            let hubNodeID = hub.authority.hubNodeID

            let register = IcdManagementCluster.Commands.RegisterClient(
                checkInNodeID: hubNodeID, monitoredSubject: hubNodeID, key: Self.key, clientType: .permanent)
            let registered = await drive(network.clock, step: .milliseconds(5)) {
                try? await client.invoke(register, endpoint: 0)
            }
            #expect(registered?.value?.icdCounter == 0)
            let entries = await fixture.device.icdRegistrations
            #expect(entries.map(\.checkInNodeID) == [hubNodeID])

            // Idle: what reaches it is lost, so a read goes unanswered.
            network.clock.advance(by: .seconds(60))
            let asleep = await drive(network.clock, step: .milliseconds(50)) {
                try? await client.read(
                    [AttributePathIB(endpoint: 0, cluster: 0x46, attribute: 0)], timeout: .seconds(5))
            }
            #expect(asleep?.value == nil, "a sleeping device answers nothing")
            #expect(checkIns.received.isEmpty)

            // It wakes one idle period after its active mode began, and checks in with the counter it registered at.
            let heard = await drive(network.clock, step: .milliseconds(200), limit: .seconds(700)) {
                await checkIns.first()
            }
            let payload = try #require(heard?.value)
            #expect(try CheckInMessage.open(payload, key: Self.key).counter == 0)
            // Logged once the send returned, which may be after the client heard it.
            #expect(
                await eventually(within: .seconds(10)) {
                    fixture.lines.all.contains { $0.hasPrefix("[icd] checked in with node 0x") }
                })
            // Awake now: it answers.
            let awake = await drive(network.clock, step: .milliseconds(5)) {
                try? await client.read([AttributePathIB(endpoint: 0, cluster: 0x46, attribute: 4)])
            }
            #expect(awake?.value != nil)
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    @Test func aSubscriberIsReportedToAtTheIdleIntervalAndNotCheckedIn() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 29)
            let fixture = try await LoopbackFixture.start(
                in: directory, kind: .contactSensor, network: network, intermittent: Self.settings)
            let hub = try await Hub(statePath: fixture.hubPath)
            let (client, transport, checkIns) = try await Self.connect(fixture, hub, network)
            let hubNodeID = hub.authority.hubNodeID
            let register = IcdManagementCluster.Commands.RegisterClient(
                checkInNodeID: hubNodeID, monitoredSubject: hubNodeID, key: Self.key, clientType: .permanent)
            _ = await drive(network.clock, step: .milliseconds(5)) { try? await client.invoke(register, endpoint: 0) }
            let request = SubscribeRequestMessage(
                minIntervalFloor: 0, maxIntervalCeiling: 60, attributeRequests: [AttributePathIB(endpoint: 1)])
            let ended = Ended()
            let subscribed = await drive(network.clock, step: .milliseconds(5)) {
                try? await client.subscribe(request) { update in
                    if case .ended(let error) = update { ended.error.withLock { $0 = "\(error)" } }
                }
            }
            let subscription = try #require(subscribed?.value ?? nil)
            // The device picks its idle time: its keep-alives come when it is awake anyway, so the subscription
            // outlives two idle periods with nothing asked of the sleeping device.
            #expect(subscription.maxInterval == .seconds(600))
            let end = await drive(network.clock, step: .milliseconds(200), limit: .seconds(1_250)) {
                await eventually(within: .seconds(60)) { ended.error.withLock { $0 } != nil }
            }
            #expect(
                end?.value != true,
                "the subscription ended at \(String(describing: end?.at)): \(ended.error.withLock { $0 } ?? "")")
            #expect(checkIns.received.isEmpty, "a client with a subscription is reported to, not checked in with")
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }
}

extension IntermittentDeviceTests {
    /// The hub as check-in client, on virtual time: it registers with the LIT device at first contact; a new set of
    /// connections (as after a restart) finds it asleep, not offline, and tries nothing until it checks in, then
    /// subscribes again and hears a contact change; a device that stops checking in is offline after two periods.
    @Test func theHubRegistersFindsItAsleepAndResubscribesWhenItChecksIn() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 31)
            let clock = network.clock
            let fixture = try await LoopbackFixture.start(
                in: directory, kind: .contactSensor, simulation: Simulation(interval: .seconds(100_000)),
                network: network, intermittent: Self.settings)
            let hub = try await Hub(statePath: fixture.hubPath, transport: { network.transport() })
            let nodeID = try await fixture.commissionDriven(hub)
            let first = NodeConnections(hub: hub, interfaces: [])
            let registered = await drive(clock, step: .milliseconds(5)) {
                _ = try? await first.connection(to: nodeID).connected()
                while (try? await hub.store.checkInRegistrations())?.isEmpty ?? true {
                    try? await clock.sleep(for: .milliseconds(10))
                }
                return true
            }
            #expect(registered?.value == true)
            #expect(await fixture.device.icdRegistrations.map(\.checkInNodeID) == [hub.authority.hubNodeID])

            // Closing the connections ends the device's subscription (it is still awake to hear it); soon after it
            // sleeps. Waited for, not assumed: its radio stays up while its own messages (a retransmission) go out.
            _ = await drive(clock, step: .milliseconds(5)) { await first.stopAll() }
            let slept = await drive(clock, step: .milliseconds(500), limit: .seconds(120)) {
                while await fixture.device.node.transport.isListening { try? await Task.sleep(for: .milliseconds(1)) }
                return true
            }
            #expect(slept?.value == true, "the device's radio never slept")
            let connections = NodeConnections(hub: hub, interfaces: [])
            let connection = try await connections.connection(to: nodeID)
            let states = StateLog(connection)
            let asleep = await drive(clock, step: .milliseconds(100), limit: .seconds(60)) {
                await eventually(within: .seconds(30)) {
                    if case .asleep = await connection.state { true } else { false }
                }
            }
            #expect(asleep?.value == true, "\(states.all)")

            // It checks in at its wake and is subscribed to again: online, never offline meanwhile.
            let online = await drive(clock, step: .milliseconds(100), limit: .seconds(700)) {
                try? await connection.connected()
            }
            #expect(online != nil, "\(states.all)")
            #expect(states.all.allSatisfy { if case .offline = $0 { false } else { true } }, "\(states.all)")
            #expect(
                await eventually(within: .seconds(10)) {
                    fixture.lines.all.contains { $0.hasPrefix("[icd] checked in with node 0x") }
                })
            // A contact change while it is awake reaches the hub.
            try await fixture.device.perform(.contact(closed: false), on: nil)
            let contact = BooleanStateCluster.Attributes.stateValue
            let heard = await drive(clock, step: .milliseconds(5)) {
                await eventually(within: .seconds(10)) { (try? await connection.value(contact, endpoint: 1)) == false }
            }
            #expect(heard?.value == true)

            // Gone for good: asleep once its subscription lapses, offline once two check-ins are missed.
            await fixture.device.shutdown()
            let offline = await drive(clock, step: .milliseconds(500), limit: .seconds(2_500)) {
                await eventually(within: .seconds(30)) {
                    if case .offline = await connection.state { true } else { false }
                }
            }
            let at = try #require(offline?.at)
            #expect(at - (online?.at ?? .zero) > .seconds(1_200), "offline only after two missed check-ins")
            #expect(states.all.contains { if case .asleep = $0 { true } else { false } })
            await connections.stopAll()
            await hub.close()
        }
    }

    /// The multi-admin rule, one for first contact and the explicit command: a LIT device another ecosystem
    /// administers too is not registered with at first contact; asked without allowances the command says who the
    /// others are; allowed, it registers; asked again, it agrees with what the hub did.
    @Test func aDeviceAnotherEcosystemAdministersIsRegisteredWithOnlyWhenAllowed() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 37)
            let clock = network.clock
            let fixture = try await LoopbackFixture.start(
                in: directory, kind: .contactSensor, simulation: Simulation(interval: .seconds(100_000)),
                network: network, intermittent: Self.settings)
            // Another ecosystem first, which opens a window for the hub (with the device's own passcode).
            let other = try await Hub(statePath: directory + "/other", transport: { network.transport() })
            let otherID = try await fixture.commissionDriven(other)
            let transport = try fixture.controllerTransport()
            let opened = await drive(clock, step: .milliseconds(5)) { () async -> String in
                do {
                    let client = try await fixture.caseClient(other, nodeID: otherID, transport: transport)
                    let fields = TLVValue.structure([TLVElement(tag: .context(0), .unsigned(180))])
                    _ = try await client.invoke(
                        endpoint: 0, cluster: 0x003C, command: 0x01, fields: fields, timedWindow: .seconds(5))
                    return "opened"
                } catch {
                    return "\(error)"
                }
            }
            #expect(opened?.value == "opened", "the other ecosystem opened no window")
            let hub = try await Hub(statePath: fixture.hubPath, transport: { network.transport() })
            let nodeID = try await fixture.commissionDriven(hub)
            #expect(await fixture.device.fabrics.count == 2)

            let connections = NodeConnections(hub: hub, interfaces: [])
            let strict = await drive(clock, step: .milliseconds(5)) { () async -> CheckInRegistrationError? in
                _ = try? await connections.connection(to: nodeID).connected()
                do throws(CheckInRegistrationError) {
                    try await connections.registerForCheckIns(
                        nodeID: nodeID, allowMultiAdmin: false, ignoredVendors: [])
                    return nil
                } catch {
                    return error
                }
            }
            // First contact (which the command waits for) registered nothing, and the command names the others.
            #expect(strict?.value == .otherAdministrators(vendorIDs: [0xFFF1]), "\(String(describing: strict))")
            #expect(try await hub.store.checkInRegistrations().isEmpty)
            #expect(await fixture.device.icdRegistrations.isEmpty)

            for ignoring: Set<UInt16> in [[0xFFF1], []] {
                // Allowed (their vendor ignored): registered; asked again without allowances: it stands.
                let allowed = await drive(clock, step: .milliseconds(5)) { () async -> CheckInRegistrationError? in
                    do throws(CheckInRegistrationError) {
                        try await connections.registerForCheckIns(
                            nodeID: nodeID, allowMultiAdmin: false, ignoredVendors: ignoring)
                        return nil
                    } catch {
                        return error
                    }
                }
                #expect(allowed != nil && allowed?.value == nil, "\(String(describing: allowed))")
                #expect(await fixture.device.icdRegistrations.map(\.checkInNodeID) == [hub.authority.hubNodeID])
                #expect(try await hub.store.checkInRegistrations().map(\.nodeID) == [nodeID])
            }
            await connections.stopAll()
            await transport.shutdown()
            await hub.close()
            await other.close()
            await fixture.device.shutdown()
        }
    }

    /// The device commissioned onto `hub`, a CASE session from the hub's credentials on a transport of its own, and
    /// a client on it; the transport's exchanges pass through `CheckIns`, which keeps the check-ins.
    static func connect(
        _ fixture: LoopbackFixture, _ hub: Hub, _ network: ClockedNetwork
    ) async throws -> (InteractionClient, MatterTransport, CheckIns) {
        let nodeID = try await fixture.commissionDriven(hub)
        let transport = try fixture.controllerTransport()
        let router = InteractionRouter(transport: transport, fedByNode: true)
        let checkIns = CheckIns(transport, router: router)
        let session = await drive(network.clock, step: .milliseconds(5)) {
            try? await SessionEstablishment.case(
                with: fixture.address, nodeID: nodeID, credentials: hub.authority.operationalCredentials,
                validator: hub.authority.peerValidator, over: transport)
        }
        let established = try #require(session?.value ?? nil)
        let client = InteractionClient(
            transport: transport, session: established.session, peerParameters: established.established.mrpParameters,
            router: router)
        return (client, transport, checkIns)
    }
}

/// Every connectivity state a connection went through.
final class StateLog: Sendable {
    private final class States: Sendable {
        let all = Mutex<[NodeConnection.State]>([])
    }
    private let states = States()
    private let task: Task<Void, Never>

    init(_ connection: NodeConnection) {
        let states = states
        task = Task {
            for await event in await connection.events() {
                if case .connectivity(let state) = event { states.all.withLock { $0.append(state) } }
            }
        }
    }

    deinit { task.cancel() }

    var all: [NodeConnection.State] { states.all.withLock { $0 } }
}

final class Ended: Sendable {
    let error = Mutex<String?>(nil)
}

/// The Check-In messages a controller transport receives (unsecured, secure channel opcode 0x50); every other
/// exchange goes on to the router of the transport's clients.
final class CheckIns: Sendable {
    private final class Payloads: Sendable {
        let all = Mutex<[[UInt8]]>([])
    }
    private let payloads = Payloads()
    private let task: Task<Void, Never>

    init(_ transport: MatterTransport, router: InteractionRouter) {
        let payloads = payloads
        task = Task {
            for await (exchange, message) in transport.incomingExchanges {
                if message.protocolID == .secureChannel, message.opcode == SecureChannelOpcode.icdCheckIn.rawValue {
                    payloads.all.withLock { $0.append(message.payload) }
                    await transport.close(exchange)
                } else {
                    await router.deliver(exchange, message)
                }
            }
        }
    }

    deinit { task.cancel() }

    var received: [[UInt8]] { payloads.all.withLock { $0 } }

    /// The first check-in, once one came.
    func first() async -> [UInt8]? {
        while !Task.isCancelled {
            if let first = received.first { return first }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }
}
