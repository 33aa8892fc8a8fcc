import MatterMessaging
import MatterTLV

@testable import MatterInteraction

/// A small device for the server's tests: endpoint 1 with OnOff (a read-only and a writable attribute, three
/// commands), Switch (an event), General Commissioning (an Administer command with a response) and Door Lock (a
/// timed command); endpoint 2 with Level Control (a timed-write attribute, a command with fields) and User Label
/// (a writable list long enough to need three messages).
struct ToyDataModel: DataModelProvider {
    static let onOff: UInt32 = 0x0006
    static let level: UInt32 = 0x0008
    static let generalCommissioning: UInt32 = 0x0030
    static let switchCluster: UInt32 = 0x003B
    static let userLabel: UInt32 = 0x0041
    static let doorLock: UInt32 = 0x0101

    var onOffValue = false
    var onTime: UInt16 = 0
    var currentLevel: UInt8 = 10
    var onLevel: UInt8 = 200
    var labels: [TLVElement] = (0..<48).map { index in
        TLVElement(
            .structure([
                TLVElement(tag: .context(0), .utf8("label \(index)")),
                TLVElement(tag: .context(1), .utf8("value number \(index)")),
            ]))
    }
    var versions: [ConcreteClusterPath: UInt32] = [:]
    var recordedEvents: [EventDataIB] = []
    /// Subjects and their privilege; nil grants everything to everyone.
    var grants: [UInt64: AccessPrivilege]?
    var invoked: [CommandPathIB] = []

    let structure: [UInt16: [ClusterDescription]] = [
        1: [
            ClusterDescription(
                id: onOff, revision: 6, featureMap: 1,
                attributes: [
                    AttributeDescription(id: 0x0000),
                    AttributeDescription(id: 0x4001, writePrivilege: .operate),
                ],
                acceptedCommands: [
                    CommandDescription(id: 0x00), CommandDescription(id: 0x01), CommandDescription(id: 0x02),
                ]),
            ClusterDescription(
                id: switchCluster, revision: 2, featureMap: 2, attributes: [AttributeDescription(id: 0x0001)],
                events: [0x01]),
            ClusterDescription(
                id: generalCommissioning, revision: 1,
                acceptedCommands: [CommandDescription(id: 0x00, privilege: .administer)],
                generatedCommands: [0x01]),
            ClusterDescription(
                id: doorLock, revision: 7, attributes: [AttributeDescription(id: 0x0000)],
                acceptedCommands: [CommandDescription(id: 0x00, requiresTimedInvoke: true)]),
        ],
        2: [
            ClusterDescription(
                id: level, revision: 5,
                attributes: [
                    AttributeDescription(id: 0x0000),
                    AttributeDescription(id: 0x0011, writePrivilege: .operate, requiresTimedWrite: true),
                ], acceptedCommands: [CommandDescription(id: 0x00)]),
            ClusterDescription(
                id: userLabel, revision: 1, attributes: [AttributeDescription(id: 0x0000, writePrivilege: .manage)]),
        ],
    ]

    var endpoints: [UInt16] { structure.keys.sorted() }

    func clusters(on endpoint: UInt16) -> [ClusterDescription] {
        structure[endpoint] ?? []
    }

    func read(
        _ path: ConcreteAttributePath, isFabricFiltered: Bool, context: AccessContext
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch (path.endpoint, path.cluster, path.attribute) {
        case (1, Self.onOff, 0x0000): .success(.bool(onOffValue))
        case (1, Self.onOff, 0x4001): .success(.unsigned(UInt64(onTime)))
        case (1, Self.switchCluster, 0x0001): .success(.unsigned(0))
        case (1, Self.doorLock, 0x0000): .success(.unsigned(1))
        case (2, Self.level, 0x0000): .success(.unsigned(UInt64(currentLevel)))
        case (2, Self.level, 0x0011): .success(.unsigned(UInt64(onLevel)))
        case (2, Self.userLabel, 0x0000): .success(.array(labels))
        default: .failure(.unsupportedAttribute)
        }
    }

    func dataVersion(of cluster: ConcreteClusterPath) -> UInt32 {
        versions[cluster] ?? 100 + cluster.cluster
    }

    private mutating func bump(_ endpoint: UInt16, _ cluster: UInt32) {
        let path = ConcreteClusterPath(endpoint: endpoint, cluster: cluster)
        versions[path] = dataVersion(of: path) &+ 1
    }

    mutating func write(
        _ path: ConcreteAttributePath, value: TLVElement, context: AccessContext
    ) -> InteractionModelStatus {
        switch (path.endpoint, path.cluster, path.attribute, value.value) {
        case (1, Self.onOff, 0x4001, .unsigned(let time)):
            guard let time = UInt16(exactly: time) else { return .constraintError }
            onTime = time
        case (2, Self.level, 0x0011, .unsigned(let level)):
            guard level <= 254 else { return .constraintError }
            onLevel = UInt8(level)
        case (2, Self.userLabel, 0x0000, .array(let items)):
            labels = items
        default:
            return .invalidDataType
        }
        bump(path.endpoint, path.cluster)
        return .success
    }

    mutating func invoke(_ path: CommandPathIB, fields: TLVElement?, context: AccessContext) -> CommandOutcome {
        invoked.append(path)
        switch (path.cluster, path.command) {
        case (Self.onOff, let command):
            onOffValue = command == 0x02 ? !onOffValue : command == 0x01
            bump(path.endpoint, path.cluster)
            return .success
        case (Self.level, 0x00):
            guard case .unsigned(let level)? = fields?[context: 0]?.value else { return .status(.invalidCommand) }
            guard level <= 254 else { return .status(.constraintError) }
            currentLevel = UInt8(level)
            bump(path.endpoint, path.cluster)
            return .success
        case (Self.generalCommissioning, 0x00):
            return .response(
                commandID: 0x01,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .utf8("")),
                ]))
        default:
            return .status(.failure, clusterStatus: 3)
        }
    }

    func events(since eventNumber: UInt64) -> [EventDataIB] {
        recordedEvents.filter { $0.eventNumber >= eventNumber }
    }

    func isAllowed(_ request: AccessRequest, for context: AccessContext) -> Bool {
        guard let grants, !context.isCommissioning else { return true }
        return grants[context.subject].map { $0 >= request.privilege } ?? false
    }

    /// Records a Switch InitialPress event with the next number.
    mutating func press(position: UInt8, at milliseconds: UInt64) {
        let number = (recordedEvents.last?.eventNumber ?? 0) + 1
        recordedEvents.append(
            EventDataIB(
                path: EventPathIB(endpoint: 1, cluster: Self.switchCluster, event: 0x01), eventNumber: number,
                priority: 1,
                timestamp: .systemMilliseconds(milliseconds),
                data: TLVElement(.structure([TLVElement(tag: .context(0), .unsigned(UInt64(position)))]))))
    }
}

/// Exchanges, contexts and message helpers shared by the server's tests.
enum ServerFixture {
    static let session = SessionHandle(rawValue: 1)
    static let admin = AccessContext(fabricIndex: 1, subject: 0x1122_3344, authMode: .case)
    static let viewer = AccessContext(fabricIndex: 1, subject: 0x5566, authMode: .case)

    static func exchange(_ id: UInt16, role: ExchangeHandle.Role = .responder) -> ExchangeHandle {
        ExchangeHandle(session: session, exchangeID: id, role: role)
    }

    static func at(seconds: Double) -> Instant {
        Instant(nanoseconds: UInt64(seconds * 1_000_000_000))
    }

    static func path(_ endpoint: UInt16?, _ cluster: UInt32?, _ attribute: UInt32?) -> AttributePathIB {
        AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute)
    }

    /// The messages the actions send, decoded by the type their opcode names.
    static func sent(_ actions: [ServerAction]) -> [(InteractionModelOpcode, [UInt8])] {
        actions.compactMap { action in
            switch action {
            case .send(let opcode, let payload, _), .openExchangeAndSend(_, let opcode, let payload, _):
                (opcode, payload)
            case .closeExchange: nil
            }
        }
    }

    static func reports(_ actions: [ServerAction]) throws -> [ReportDataMessage] {
        try sent(actions).filter { $0.0 == .reportData }.map { try ReportDataMessage(payload: $0.1) }
    }

    static func status(_ actions: [ServerAction]) throws -> InteractionModelStatus? {
        try sent(actions).first { $0.0 == .statusResponse }.map { try StatusResponseMessage(payload: $0.1).status }
    }

    static func statusResponse(_ status: InteractionModelStatus) -> [UInt8] {
        StatusResponseMessage(status: status).encoded()
    }

    static func closes(_ actions: [ServerAction], _ exchange: ExchangeHandle) -> Bool {
        actions.contains(.closeExchange(exchange))
    }
}

extension InteractionServer {
    /// `handle` with an opcode enum and the admin context, at `now` (default zero).
    mutating func receive(
        _ opcode: InteractionModelOpcode, _ payload: [UInt8], on exchange: ExchangeHandle,
        context: AccessContext = ServerFixture.admin, now: Instant = .zero
    ) -> [ServerAction] {
        handle(opcode: opcode.rawValue, payload: payload, on: exchange, context: context, now: now)
    }
}
