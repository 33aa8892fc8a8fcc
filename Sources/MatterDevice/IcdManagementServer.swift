import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

/// How a virtual device sleeps (Matter Core §9.16, an intermittently connected device): its operating mode and the
/// lengths of its modes.
public struct IntermittentConnection: Hashable, Sendable {
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Long Idle Time: idle for minutes or hours, unreachable meanwhile; clients register to hear it check in.
        case lit
        /// Short Idle Time: polls its parent often enough to be reached within seconds; no check-ins.
        case sit
    }

    public var mode: Mode
    /// §9.16.6.1 IdleModeDuration, seconds (1 to 64,800).
    public var idleModeSeconds: UInt32
    /// §9.16.6.2 ActiveModeDuration, milliseconds.
    public var activeModeMilliseconds: UInt32
    /// §9.16.6.3 ActiveModeThreshold, milliseconds: how long each message sent or heard keeps it active.
    public var activeModeThresholdMilliseconds: UInt16

    /// A LIT device idles 10 minutes (the contact sensor on battery) and stays 10 s awake, long enough for a
    /// client to open CASE and resubscribe after its check-in; a SIT device idles 5 s, as short-poll devices do.
    public init(
        mode: Mode, idleModeSeconds: UInt32? = nil, activeModeMilliseconds: UInt32 = 10_000,
        activeModeThresholdMilliseconds: UInt16 = 5_000
    ) {
        self.mode = mode
        self.idleModeSeconds = idleModeSeconds ?? (mode == .lit ? 600 : 5)
        self.activeModeMilliseconds = activeModeMilliseconds
        self.activeModeThresholdMilliseconds = activeModeThresholdMilliseconds
    }

    public static let idleModeSecondsRange: ClosedRange<UInt32> = 1...64_800

    var idleMode: Duration { .seconds(Int64(idleModeSeconds)) }
    var activeMode: Duration { .milliseconds(Int64(activeModeMilliseconds)) }
    var activeModeThreshold: Duration { .milliseconds(Int64(activeModeThresholdMilliseconds)) }
}

// Matter Core §9.16 ICD Management cluster, server: the device's modes, and for a LIT device the clients registered
// to be told it checked in (RegisterClient, with a 16-byte key each; UnregisterClient), the Check-In counter that
// rises with each check-in, and StayActiveRequest. Registrations and the counter survive restarts; keys are never
// read back (§9.16.5.1: RegisteredClients carries no key).
public struct IcdManagementServer: ClusterServer {
    private typealias Cluster = IcdManagementCluster
    private typealias Attributes = IcdManagementCluster.Attributes
    private typealias Commands = IcdManagementCluster.Commands

    /// One client registered to be checked in with.
    public struct Registration: Hashable, Sendable {
        public var fabricIndex: UInt8
        public var checkInNodeID: UInt64
        public var monitoredSubject: UInt64
        public var key: [UInt8]
        public var clientType: IcdManagementCluster.ClientTypeEnum
    }

    /// §9.16.6.5: at least one a fabric; two let a hub and a phone of one fabric both register.
    static let clientsSupportedPerFabric: UInt16 = 2
    /// §9.16.7.3 StayActiveRequest: what a device promises at most (connectedhomeip's 30 s).
    static let maximumStayActive: UInt32 = 30_000

    public let settings: IntermittentConnection
    public private(set) var registrations: [Registration] = []
    /// §9.16.6.4 ICDCounter: the counter of the next check-in.
    public private(set) var counter: UInt32

    public init(settings: IntermittentConnection, initialCounter: UInt32 = 0) {
        self.settings = settings
        counter = initialCounter
    }

    private var features: Cluster.Feature {
        settings.mode == .lit ? [.checkInProtocolSupport, .userActiveModeTrigger, .longIdleTimeSupport] : []
    }

    public var description: ClusterDescription {
        var attributes = [
            AttributeDescription(Attributes.idleModeDuration), AttributeDescription(Attributes.activeModeDuration),
            AttributeDescription(Attributes.activeModeThreshold),
        ]
        var accepted: [CommandDescription] = []
        var generated: [UInt32] = []
        if settings.mode == .lit {
            attributes += [
                AttributeDescription(Attributes.registeredClients), AttributeDescription(Attributes.icdCounter),
                AttributeDescription(Attributes.clientsSupportedPerFabric),
                AttributeDescription(Attributes.userActiveModeTriggerHint),
                AttributeDescription(Attributes.operatingMode),
                AttributeDescription(Attributes.maximumCheckInBackOff),
            ]
            accepted = [
                CommandDescription(Commands.RegisterClient.self), CommandDescription(Commands.UnregisterClient.self),
                CommandDescription(Commands.StayActiveRequest.self),
            ]
            generated = [Commands.RegisterClientResponse.id.rawValue, Commands.StayActiveResponse.id.rawValue]
        }
        return ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision, featureMap: features.rawValue,
            attributes: attributes, acceptedCommands: accepted, generatedCommands: generated)
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.idleModeDuration.id.rawValue: .success(.unsigned(UInt64(settings.idleModeSeconds)))
        case Attributes.activeModeDuration.id.rawValue: .success(.unsigned(UInt64(settings.activeModeMilliseconds)))
        case Attributes.activeModeThreshold.id.rawValue:
            .success(.unsigned(UInt64(settings.activeModeThresholdMilliseconds)))
        case Attributes.registeredClients.id.rawValue:
            .success(
                .array(
                    registrations.filter { !request.isFabricFiltered || $0.fabricIndex == request.context.fabricIndex }
                        .map {
                            TLVElement(
                                Cluster.MonitoringRegistrationStruct(
                                    checkInNodeID: $0.checkInNodeID, monitoredSubject: $0.monitoredSubject,
                                    clientType: $0.clientType, fabricIndex: $0.fabricIndex
                                ).tlvValue())
                        }))
        case Attributes.icdCounter.id.rawValue: .success(.unsigned(UInt64(counter)))
        case Attributes.clientsSupportedPerFabric.id.rawValue:
            .success(.unsigned(UInt64(Self.clientsSupportedPerFabric)))
        case Attributes.userActiveModeTriggerHint.id.rawValue:
            .success(.unsigned(UInt64(Cluster.UserActiveModeTriggerBitmap.actuateSensor.rawValue)))
        case Attributes.operatingMode.id.rawValue:
            .success(.unsigned(UInt64((settings.mode == .lit ? Cluster.OperatingModeEnum.lit : .sit).rawValue)))
        case Attributes.maximumCheckInBackOff.id.rawValue: .success(.unsigned(UInt64(settings.idleModeSeconds)))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        guard settings.mode == .lit else { return .status(.unsupportedCommand) }
        let fabricIndex = request.context.fabricIndex
        switch command {
        case Commands.RegisterClient.id.rawValue:
            guard let register = Commands.RegisterClient.decode(fields) else { return .status(.invalidCommand) }
            guard register.key.count == 16, register.verificationKey.map({ $0.count == 16 }) ?? true else {
                return .status(.constraintError)
            }
            let entry = Registration(
                fabricIndex: fabricIndex, checkInNodeID: register.checkInNodeID,
                monitoredSubject: register.monitoredSubject, key: register.key, clientType: register.clientType)
            if let index = registrations.firstIndex(where: {
                $0.fabricIndex == fabricIndex && $0.checkInNodeID == register.checkInNodeID
            }) {
                // §9.16.7.1: an entry is replaced by an administrator, or by whoever proves they hold its key.
                guard isAdministrator(request, in: node) || register.verificationKey == registrations[index].key else {
                    return .status(.failure)
                }
                registrations[index] = entry
            } else {
                guard registrations.count(where: { $0.fabricIndex == fabricIndex }) < Self.clientsSupportedPerFabric
                else { return .status(.resourceExhausted) }
                registrations.append(entry)
            }
            changed(in: &node, request)
            node.effects += [
                .log("[icd] node 0x\(hex(register.checkInNodeID)) registered for check-ins"),
                .checkInClientRegistered(nodeID: register.checkInNodeID, fabricIndex: fabricIndex),
            ]
            return Commands.RegisterClientResponse(icdCounter: counter).outcome
        case Commands.UnregisterClient.id.rawValue:
            guard let unregister = Commands.UnregisterClient.decode(fields) else { return .status(.invalidCommand) }
            guard
                let index = registrations.firstIndex(where: {
                    $0.fabricIndex == fabricIndex && $0.checkInNodeID == unregister.checkInNodeID
                })
            else { return .status(.notFound) }
            guard isAdministrator(request, in: node) || unregister.verificationKey == registrations[index].key else {
                return .status(.failure)
            }
            registrations.remove(at: index)
            changed(in: &node, request)
            node.effects.append(.log("[icd] node 0x\(hex(unregister.checkInNodeID)) unregistered"))
            return .success
        case Commands.StayActiveRequest.id.rawValue:
            guard let stay = Commands.StayActiveRequest.decode(fields) else { return .status(.invalidCommand) }
            let promised = max(
                min(stay.stayActiveDuration, Self.maximumStayActive), UInt32(settings.activeModeThresholdMilliseconds))
            node.effects.append(.stayActive(milliseconds: promised))
            return Commands.StayActiveResponse(promisedActiveDuration: promised).outcome
        default:
            return .status(.unsupportedCommand)
        }
    }

    /// The counter a check-in is sent with; the next one's is higher (once per wake, whoever it goes to).
    public mutating func nextCheckIn(in node: inout NodeState, endpoint: UInt16) -> UInt32 {
        let sent = counter
        counter &+= 1
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Attributes.icdCounter.id.rawValue])
        return sent
    }

    private func isAdministrator(_ request: ClusterRequest, in node: NodeState) -> Bool {
        guard request.context.authMode == .case, let fabric = node.fabric(request.context.fabricIndex) else {
            return false
        }
        return fabric.accessControl.contains {
            $0.privilege == .administer && $0.authMode == .case
                && ($0.subjects.isEmpty || $0.subjects.contains(request.context.subject))
        }
    }

    private mutating func changed(in node: inout NodeState, _ request: ClusterRequest) {
        node.markChanged(
            endpoint: request.endpoint, cluster: id, attributes: [Attributes.registeredClients.id.rawValue])
        node.effects.append(.persist)
    }

    private func hex(_ value: UInt64) -> String { String(value, radix: 16, uppercase: true) }

    // MARK: Persistence

    public var persistentState: TLVValue? {
        .structure([
            TLVElement(tag: .context(0), .unsigned(UInt64(counter))),
            TLVElement(
                tag: .context(1),
                .array(
                    registrations.map {
                        TLVElement(
                            .structure([
                                TLVElement(tag: .context(0), .unsigned(UInt64($0.fabricIndex))),
                                TLVElement(tag: .context(1), .unsigned($0.checkInNodeID)),
                                TLVElement(tag: .context(2), .unsigned($0.monitoredSubject)),
                                TLVElement(tag: .context(3), .bytes($0.key)),
                                TLVElement(tag: .context(4), .unsigned(UInt64($0.clientType.rawValue))),
                            ]))
                    })),
        ])
    }

    public mutating func restore(_ state: TLVElement) {
        if case .unsigned(let stored)? = state[context: 0]?.value { counter = UInt32(truncatingIfNeeded: stored) }
        guard case .array(let items)? = state[context: 1]?.value else { return }
        registrations = items.compactMap { item in
            guard case .unsigned(let fabric)? = item[context: 0]?.value,
                case .unsigned(let node)? = item[context: 1]?.value,
                case .unsigned(let subject)? = item[context: 2]?.value,
                case .bytes(let key)? = item[context: 3]?.value, key.count == 16,
                case .unsigned(let type)? = item[context: 4]?.value
            else { return nil }
            return Registration(
                fabricIndex: UInt8(truncatingIfNeeded: fabric), checkInNodeID: node, monitoredSubject: subject,
                key: key, clientType: .init(rawValue: UInt8(truncatingIfNeeded: type)))
        }
    }
}
