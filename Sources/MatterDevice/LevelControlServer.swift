import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §1.6 Level Control cluster, server, with the On/Off and Lighting features: levels 1 to
// 254, OnLevel, StartUpCurrentLevel; every move completes at once (no transitions), so Stop has nothing to stop.
public struct LevelControlServer: ClusterServer {
    private typealias Cluster = LevelControlCluster
    private typealias Attributes = LevelControlCluster.Attributes
    private typealias Commands = LevelControlCluster.Commands

    public private(set) var currentLevel: UInt8
    public private(set) var onLevel: UInt8?
    public private(set) var startUpCurrentLevel: UInt8?
    public private(set) var options: LevelControlCluster.OptionsBitmap = []
    /// The endpoint's On/Off state, as the On/Off server signals it: commands without "with On/Off" act only when on.
    public private(set) var isOn = false
    /// The console name of what it dims ("dimmable-light" prints "[dimmable-light] level 127").
    public let name: String

    private static let levels = DeviceConstants.lightingLevels

    public init(name: String, level: UInt8 = DeviceConstants.lightingLevels.upperBound) {
        self.name = name
        currentLevel = min(max(level, Self.levels.lowerBound), Self.levels.upperBound)
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            featureMap: Cluster.Feature([.onOff, .lighting]).rawValue,
            attributes: [
                AttributeDescription(Attributes.currentLevel), AttributeDescription(Attributes.remainingTime),
                AttributeDescription(Attributes.minLevel), AttributeDescription(Attributes.maxLevel),
                AttributeDescription(Attributes.options),
                AttributeDescription(Attributes.onLevel), AttributeDescription(Attributes.startUpCurrentLevel),
            ],
            acceptedCommands: [
                CommandDescription(Commands.MoveToLevel.self), CommandDescription(Commands.Move.self),
                CommandDescription(Commands.Step.self),
                CommandDescription(Commands.Stop.self), CommandDescription(Commands.MoveToLevelWithOnOff.self),
                CommandDescription(Commands.MoveWithOnOff.self), CommandDescription(Commands.StepWithOnOff.self),
                CommandDescription(Commands.StopWithOnOff.self),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.currentLevel.id.rawValue: .success(.unsigned(UInt64(currentLevel)))
        case Attributes.remainingTime.id.rawValue: .success(.unsigned(0))
        case Attributes.minLevel.id.rawValue: .success(.unsigned(UInt64(Self.levels.lowerBound)))
        case Attributes.maxLevel.id.rawValue: .success(.unsigned(UInt64(Self.levels.upperBound)))
        case Attributes.options.id.rawValue: .success(options.tlvValue())
        case Attributes.onLevel.id.rawValue: .success(Nullable(onLevel).tlvValue())
        case Attributes.startUpCurrentLevel.id.rawValue: .success(Nullable(startUpCurrentLevel).tlvValue())
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        switch attribute {
        case Attributes.options.id.rawValue:
            guard let written = try? Cluster.OptionsBitmap(tlv: value) else { return .invalidDataType }
            guard Cluster.OptionsBitmap([.executeIfOff, .coupleColorTempToLevel]).isSuperset(of: written) else {
                return .constraintError
            }
            options = written
        case Attributes.onLevel.id.rawValue:
            guard let written = try? Nullable<UInt8>(tlv: value) else { return .invalidDataType }
            if let level = written.optional, !Self.levels.contains(level) { return .constraintError }
            onLevel = written.optional
        case Attributes.startUpCurrentLevel.id.rawValue:
            // §1.6.6.15: 0 means MinLevel, null the previous level; 255 is not a level.
            guard let written = try? Nullable<UInt8>(tlv: value) else { return .invalidDataType }
            if let level = written.optional, level > Self.levels.upperBound { return .constraintError }
            startUpCurrentLevel = written.optional
        default:
            return .unsupportedWrite
        }
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [attribute])
        node.effects.append(.persistSoon)
        return .success
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        let target: UInt8, withOnOff: Bool, overrides: (mask: Cluster.OptionsBitmap, override: Cluster.OptionsBitmap)
        switch command {
        case Commands.MoveToLevel.id.rawValue, Commands.MoveToLevelWithOnOff.id.rawValue:
            guard let move = Commands.MoveToLevel.decode(fields) else { return .status(.invalidCommand) }
            guard move.level <= Self.levels.upperBound else { return .status(.constraintError) }
            (target, withOnOff, overrides) = (
                move.level, command == Commands.MoveToLevelWithOnOff.id.rawValue,
                (move.optionsMask, move.optionsOverride)
            )
        case Commands.Move.id.rawValue, Commands.MoveWithOnOff.id.rawValue:
            guard let move = Commands.Move.decode(fields) else { return .status(.invalidCommand) }
            guard move.moveMode == .up || move.moveMode == .down else { return .status(.constraintError) }
            // §1.6.7.2.2: a rate of zero moves nothing.
            if move.rate == .value(0) { return .status(.invalidCommand) }
            let bound = move.moveMode == .up ? Self.levels.upperBound : Self.levels.lowerBound
            (target, withOnOff, overrides) = (
                bound, command == Commands.MoveWithOnOff.id.rawValue, (move.optionsMask, move.optionsOverride)
            )
        case Commands.Step.id.rawValue, Commands.StepWithOnOff.id.rawValue:
            guard let step = Commands.Step.decode(fields) else { return .status(.invalidCommand) }
            guard step.stepMode == .up || step.stepMode == .down else { return .status(.constraintError) }
            let level =
                step.stepMode == .up ? Int(currentLevel) + Int(step.stepSize) : Int(currentLevel) - Int(step.stepSize)
            (target, withOnOff, overrides) = (
                Self.clamped(level), command == Commands.StepWithOnOff.id.rawValue,
                (step.optionsMask, step.optionsOverride)
            )
        case Commands.Stop.id.rawValue, Commands.StopWithOnOff.id.rawValue:
            guard Commands.Stop.decode(fields) != nil else { return .status(.invalidCommand) }
            return .success
        default:
            return .status(.unsupportedCommand)
        }
        // §1.6.4.1.1: without "with On/Off", an endpoint that is off ignores the command unless ExecuteIfOff says otherwise.
        let effective = overrides.mask.intersection(overrides.override).union(options.subtracting(overrides.mask))
        guard withOnOff || isOn || effective.contains(.executeIfOff) else { return .success }
        setLevel(Self.clamped(Int(target)), in: &node, endpoint: request.endpoint)
        if withOnOff {
            // §1.6.4.1.1: raising the level turns the endpoint on; reaching MinLevel turns it off.
            let on = currentLevel > Self.levels.lowerBound
            if on != isOn { node.signals.append((request.endpoint, .onOff(on))) }
        }
        return .success
    }

    public mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16) {
        guard case .onOff(let on) = signal, on != isOn else { return }
        isOn = on
        node.effects.append(.persistSoon)
        // §1.6.4.1.2: turning on goes to OnLevel when one is set.
        if on, let onLevel { setLevel(onLevel, in: &node, endpoint: endpoint) }
    }

    private mutating func setLevel(_ level: UInt8, in node: inout NodeState, endpoint: UInt16) {
        node.effects.append(.log("[\(name)] level \(level)"))
        guard level != currentLevel else { return }
        currentLevel = level
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Attributes.currentLevel.id.rawValue])
        node.effects.append(.persistSoon)
    }

    private static func clamped(_ level: Int) -> UInt8 {
        UInt8(min(max(level, Int(levels.lowerBound)), Int(levels.upperBound)))
    }

    public var persistentState: TLVValue? {
        .structure([
            TLVElement(tag: .context(0), .unsigned(UInt64(currentLevel))),
            TLVElement(tag: .context(1), Nullable(onLevel).tlvValue()),
            TLVElement(tag: .context(2), Nullable(startUpCurrentLevel).tlvValue()),
            TLVElement(tag: .context(3), options.tlvValue()),
            TLVElement(tag: .context(4), .bool(isOn)),
        ])
    }

    /// Restores the stored values, then applies StartUpCurrentLevel (§1.6.6.15).
    public mutating func restore(_ state: TLVElement) {
        if let level = state[context: 0].flatMap({ try? UInt8(tlv: $0) }) { currentLevel = Self.clamped(Int(level)) }
        if let stored = state[context: 1].flatMap({ try? Nullable<UInt8>(tlv: $0) }) { onLevel = stored.optional }
        if let stored = state[context: 2].flatMap({ try? Nullable<UInt8>(tlv: $0) }) {
            startUpCurrentLevel = stored.optional
        }
        if let stored = state[context: 3].flatMap({ try? Cluster.OptionsBitmap(tlv: $0) }) { options = stored }
        if case .bool(let on)? = state[context: 4]?.value { isOn = on }
        if let startUp = startUpCurrentLevel { currentLevel = Self.clamped(Int(startUp)) }
    }
}
