import HomeRecords
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterPlatform
import MatterTLV
import MatterTestSupport

@testable import HomeHub

/// A dimmable light for the live connection's tests: Basic Information on endpoint 0, OnOff and Level Control on
/// endpoint 1. How OnOff treats Toggle is the test's choice.
struct LightDataModel: DataModelProvider {
    enum Toggle: Sendable {
        case accepted
        /// Not in the AcceptedCommandList.
        case unlisted
        /// Listed, but answered UNSUPPORTED_COMMAND, as CircuitMatter does.
        case listedButRefused
    }

    var isOn = false
    var level: UInt8 = 10
    var toggle: Toggle
    var versions: [ConcreteClusterPath: UInt32] = [:]
    /// Every command invoked, in order.
    var invoked: [CommandPathIB] = []

    static let onOffPath = ConcreteAttributePath(endpoint: 1, cluster: OnOffCluster.id.rawValue, attribute: 0x0000)
    static let levelPath = ConcreteAttributePath(
        endpoint: 1, cluster: LevelControlCluster.id.rawValue, attribute: 0x0000)

    var endpoints: [UInt16] { [0, 1] }

    func clusters(on endpoint: UInt16) -> [ClusterDescription] {
        switch endpoint {
        case 0:
            [
                ClusterDescription(
                    id: BasicInformationCluster.id.rawValue, revision: 3,
                    attributes: [
                        AttributeDescription(id: 0x0001), AttributeDescription(id: 0x0003),
                    ])
            ]
        case 1:
            [
                ClusterDescription(
                    id: OnOffCluster.id.rawValue, revision: 6, featureMap: 1,
                    attributes: [AttributeDescription(id: 0x0000)],
                    acceptedCommands: (toggle == .unlisted ? [0x00, 0x01] : [0x00, 0x01, 0x02]).map {
                        CommandDescription(id: $0)
                    }),
                ClusterDescription(
                    id: LevelControlCluster.id.rawValue, revision: 5, attributes: [AttributeDescription(id: 0x0000)],
                    acceptedCommands: [CommandDescription(id: 0x04)]),
            ]
        default:
            []
        }
    }

    func read(
        _ path: ConcreteAttributePath, isFabricFiltered: Bool, context: AccessContext
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch (path.endpoint, path.cluster, path.attribute) {
        case (0, BasicInformationCluster.id.rawValue, 0x0001): .success(.utf8("Loopback"))
        case (0, BasicInformationCluster.id.rawValue, 0x0003): .success(.utf8("Light"))
        case (1, OnOffCluster.id.rawValue, 0x0000): .success(.bool(isOn))
        case (1, LevelControlCluster.id.rawValue, 0x0000): .success(.unsigned(UInt64(level)))
        default: .failure(.unsupportedAttribute)
        }
    }

    func dataVersion(of cluster: ConcreteClusterPath) -> UInt32 {
        versions[cluster] ?? 1
    }

    mutating func write(
        _ path: ConcreteAttributePath, value: TLVElement, context: AccessContext
    ) -> InteractionModelStatus {
        .unsupportedWrite
    }

    mutating func invoke(_ path: CommandPathIB, fields: TLVElement?, context: AccessContext) -> CommandOutcome {
        invoked.append(path)
        switch (path.cluster, path.command) {
        case (OnOffCluster.id.rawValue, 0x02) where toggle == .listedButRefused:
            return .status(.unsupportedCommand)
        case (OnOffCluster.id.rawValue, let command):
            isOn = command == 0x02 ? !isOn : command == 0x01
            bump(Self.onOffPath.clusterPath)
        case (LevelControlCluster.id.rawValue, 0x04):
            guard case .unsigned(let level)? = fields?[context: 0]?.value, level <= 254 else {
                return .status(.invalidCommand)
            }
            self.level = UInt8(level)
            isOn = level > 0
            bump(Self.levelPath.clusterPath)
            bump(Self.onOffPath.clusterPath)
        default:
            return .status(.unsupportedCommand)
        }
        return .success
    }

    mutating func bump(_ cluster: ConcreteClusterPath) {
        versions[cluster] = dataVersion(of: cluster) &+ 1
    }

    func events(since eventNumber: UInt64) -> [EventDataIB] { [] }
}

/// The light on its own transport on ::1, serving the Interaction Model with MatterInteraction's server. Sessions
/// with a controller's transport are made with fixed keys (no CASE); `powerOff()` makes it silent and refuse new
/// sessions, `powerOn()` brings it back as a reboot would: no sessions, no subscriptions.
actor LoopbackLight {
    let transport: MatterTransport
    private var server: InteractionServer<LightDataModel>
    private var sessions: [SessionHandle] = []
    private var isPoweredOn = true
    /// Records subscription requests and answers none (a device whose answers are lost), while it answers the rest.
    private var ignoresSubscriptions = false
    private let sessionIDBase: UInt16
    private var sessionCount: UInt16 = 0
    private var tasks: [Task<Void, Never>] = []
    /// Every SubscribeRequest the light was sent, in order.
    private(set) var subscribeRequests: [SubscribeRequestMessage] = []
    /// How many attribute reports each ReportData the light sent carried, in order.
    private(set) var reportedAttributeCounts: [Int] = []

    /// MRP intervals short enough that a lost subscription is noticed a fraction of a second after its max interval.
    static let peerParameters = MRPParameters(idleInterval: .milliseconds(50), activeInterval: .milliseconds(50))
    static let context = AccessContext(fabricIndex: 1, subject: 0x1122_3344, authMode: .case)

    /// `sessionIDBase` keeps the session IDs of several lights apart on one controller transport. On loopback UDP and
    /// the system clock, or on a test network and its manual clock.
    init(toggle: LightDataModel.Toggle = .accepted, sessionIDBase: UInt16 = 100, network: ClockedNetwork? = nil) throws
    {
        if let network {
            transport = network.transport()
        } else {
            transport = try MatterTransport()
        }
        server = InteractionServer(provider: LightDataModel(toggle: toggle))
        self.sessionIDBase = sessionIDBase
    }

    /// The port its transport receives on.
    var port: UInt16 { (try? transport.localPorts().ipv6) ?? 0 }

    func start() {
        let incoming = transport.incomingExchanges
        tasks.append(
            Task { [weak self] in
                for await (exchange, message) in incoming {
                    await self?.handle(message, on: exchange)
                    await self?.follow(exchange)
                }
            })
        tasks.append(
            Task { [weak self] in
                while !Task.isCancelled, let self {
                    await self.tick()
                    try? await self.transport.clock.sleep(for: .milliseconds(10))
                }
            })
    }

    /// A new secure session between this light and `controller`, as CASE would leave it.
    func makeSession(with controller: MatterTransport) async throws -> NodeSession {
        guard isPoweredOn else { throw LightPoweredOff() }
        sessionCount += 1
        let deviceID = sessionIDBase + sessionCount
        let controllerID = sessionIDBase + 50 + sessionCount
        let controllerToDevice = [UInt8](repeating: UInt8(truncatingIfNeeded: deviceID), count: 16)
        let deviceToController = [UInt8](repeating: UInt8(truncatingIfNeeded: controllerID), count: 16)
        let devicePort = try transport.localPorts().ipv6
        let controllerPort = try controller.localPorts().ipv6
        sessions.append(
            try await transport.addSecureSession(
                SecureSessionParameters(
                    localSessionID: deviceID, peerSessionID: controllerID, encryptionKey: deviceToController,
                    decryptionKey: controllerToDevice, localNonceNodeID: 0, peerNonceNodeID: 0),
                peer: .udp(.ipv6(IPv6Address(0, 1), port: controllerPort))))
        let session = try await controller.addSecureSession(
            SecureSessionParameters(
                localSessionID: controllerID, peerSessionID: deviceID, encryptionKey: controllerToDevice,
                decryptionKey: deviceToController, localNonceNodeID: 0, peerNonceNodeID: 0),
            peer: .udp(.ipv6(IPv6Address(0, 1), port: devicePort)), peerParameters: Self.peerParameters)
        return NodeSession(session: session, peerParameters: Self.peerParameters)
    }

    /// Changes the light as a person at the switch would; subscribers hear of it at the next report.
    func set(isOn: Bool) async {
        server.provider.isOn = isOn
        server.provider.bump(LightDataModel.onOffPath.clusterPath)
        guard isPoweredOn else { return }
        await execute(server.attributesChanged([LightDataModel.onOffPath], now: now()))
    }

    var model: LightDataModel { server.provider }

    /// Subscription requests go unanswered from now on; commands and reads are answered.
    func ignoreSubscriptions() {
        ignoresSubscriptions = true
    }

    /// Silent from now on: no reports, no answers, no new sessions.
    func powerOff() {
        isPoweredOn = false
    }

    /// Back as after a reboot: the old sessions and subscriptions are gone.
    func powerOn() async {
        for session in sessions { await transport.removeSession(session) }
        sessions = []
        server = InteractionServer(provider: server.provider)
        isPoweredOn = true
    }

    func stop() async {
        for task in tasks { task.cancel() }
        await transport.shutdown()
    }

    // MARK: Driving the server

    private func handle(_ message: ExchangeMessage, on exchange: ExchangeHandle) async {
        guard isPoweredOn, message.protocolID == .interactionModel else { return }
        if message.opcode == InteractionModelOpcode.subscribeRequest.rawValue,
            let request = try? SubscribeRequestMessage(payload: message.payload)
        {
            subscribeRequests.append(request)
            if ignoresSubscriptions { return }
        }
        let before = server.provider
        await execute(
            server.handle(
                opcode: message.opcode, payload: message.payload, on: exchange, context: Self.context, now: now()))
        // A command changed the light: its subscribers hear of it, as a device's clusters tell the engine.
        var changed: [ConcreteAttributePath] = []
        if server.provider.isOn != before.isOn { changed.append(LightDataModel.onOffPath) }
        if server.provider.level != before.level { changed.append(LightDataModel.levelPath) }
        if !changed.isEmpty { await execute(server.attributesChanged(changed, now: now())) }
    }

    /// Feeds the later messages of an exchange (StatusResponses to report chunks) to the server until it closes.
    private func follow(_ exchange: ExchangeHandle) {
        let transport = transport
        tasks.append(
            Task { [weak self] in
                while let message = try? await transport.receive(on: exchange, timeout: .seconds(30)) {
                    await self?.handle(message, on: exchange)
                }
                await self?.exchangeEnded(exchange)
            })
    }

    private func exchangeEnded(_ exchange: ExchangeHandle) {
        server.exchangeFailed(exchange)
    }

    private func tick() async {
        guard isPoweredOn else { return }
        await execute(server.tick(now: now()))
    }

    private func execute(_ actions: [ServerAction]) async {
        for action in actions {
            switch action {
            case .send(let opcode, let payload, let exchange):
                if opcode == .reportData, let report = try? ReportDataMessage(payload: payload) {
                    reportedAttributeCounts.append(report.attributeReports.count)
                }
                try? await transport.send(
                    ExchangeMessage(protocolID: .interactionModel, opcode: opcode.rawValue, payload: payload),
                    on: exchange)
            case .closeExchange(let exchange):
                await transport.close(exchange)
            case .openExchangeAndSend(let session, let opcode, let payload, let subscriptionID):
                guard let exchange = try? await transport.openExchange(on: session) else {
                    await execute(server.cancelSubscription(subscriptionID))
                    continue
                }
                server.reportExchangeOpened(exchange, subscriptionID: subscriptionID)
                try? await transport.send(
                    ExchangeMessage(protocolID: .interactionModel, opcode: opcode.rawValue, payload: payload),
                    on: exchange)
                follow(exchange)
            }
        }
    }

    private func now() -> Instant {
        transport.clock.now
    }
}

struct LightPoweredOff: Error, CustomStringConvertible {
    var description: String { "the light is off" }
}
